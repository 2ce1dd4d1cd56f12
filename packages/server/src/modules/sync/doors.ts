import { type EntityDefinition, registeredEntities, writtenAtCentral } from './registry';

/**
 * docs/ARCHITECTURE.md's table of every replicated entity's owner and the doors that write it, made from the
 * registry (doors.test.ts holds the document to it; `npm run gen:entity-doors` rewrites it).
 */
export const DOORS_START = '<!-- entity-doors:start (npm run gen:entity-doors) -->';
export const DOORS_END = '<!-- entity-doors:end -->';

const routeList = (def: EntityDefinition, refused: boolean) =>
  def.rest
    .filter((r) => (r.atConnectedTill === 'refused') === refused)
    .map((r) => `\`${r.method.toUpperCase()} ${r.path}\``)
    .join(', ');

function doors(def: EntityDefinition): string {
  if (writtenAtCentral(def)) {
    const forwarded = routeList(def, false);
    const refused = routeList(def, true);
    return [
      forwarded && `REST forwarded to central from a connected till: ${forwarded}`,
      refused && `central only (a connected till refuses): ${refused}`,
      'a till’s push is refused',
    ]
      .filter(Boolean)
      .join('; ');
  }
  if (def.push === 'central-only') return 'inside its document’s sync push (never on its own)';
  const rest = routeList(def, false);
  const push = typeof def.push === 'function' ? 'sync push, when its rule agrees' : 'sync push';
  return rest ? `REST at till: ${rest}; ${push}` : `${push} (the device only)`;
}

export function entityDoorsTable(): string {
  const rows = registeredEntities().map(
    (def) => `| \`${def.entity}\` | ${def.owner} | ${def.scope} | ${doors(def)} |`,
  );
  return ['| Entity | Owner | Pulled to | Doors that write it |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** The document with its table section replaced by the registry's. */
export function withEntityDoors(doc: string): string {
  const start = doc.indexOf(DOORS_START);
  const end = doc.indexOf(DOORS_END);
  if (start < 0 || end < start) throw new Error('docs/ARCHITECTURE.md has no entity-doors section');
  return `${doc.slice(0, start + DOORS_START.length)}\n${entityDoorsTable()}\n${doc.slice(end)}`;
}
