import iconv from 'iconv-lite';

export type CommandSet = 'epson' | 'star';

/**
 * Code pages both Epson ESC/POS and Star Line Mode printers carry. Names follow node-thermal-printer's
 * CharacterSet, whose own ESC t / ESC GS t bytes we emit; the numbers here let the test decoder read them back.
 */
export const CODE_PAGES = {
  PC437_USA: { iconv: 'cp437', epson: 0, star: 1 },
  PC858_EURO: { iconv: 'cp858', epson: 19, star: 4 },
  WPC1252: { iconv: 'cp1252', epson: 16, star: 32 },
  PC852_LATIN2: { iconv: 'cp852', epson: 18, star: 5 },
  WPC1250_LATIN2: { iconv: 'cp1250', epson: 45, star: 33 },
  PC857_TURKISH: { iconv: 'cp857', epson: 13, star: 12 },
  PC737_GREEK: { iconv: 'cp737', epson: 14, star: 15 },
  PC866_CYRILLIC2: { iconv: 'cp866', epson: 17, star: 10 },
  WPC1251_CYRILLIC: { iconv: 'cp1251', epson: 46, star: 34 },
  PC862_HEBREW: { iconv: 'cp862', epson: 36, star: 13 },
  PC864_ARABIC: { iconv: 'cp864', epson: 37, star: 14 },
} as const satisfies Record<string, { iconv: string; epson: number; star: number }>;

export type CodePage = keyof typeof CODE_PAGES;

export const DEFAULT_CODE_PAGE: CodePage = 'PC858_EURO';

/** Own names only: a code page named like an Object method ("constructor") is not one. */
export const isCodePage = (name: string): name is CodePage => Object.hasOwn(CODE_PAGES, name);

const LANGUAGE_CODE_PAGES: ReadonlyMap<string, CodePage> = new Map(
  Object.entries({
    pl: 'PC852_LATIN2',
    cs: 'PC852_LATIN2',
    sk: 'PC852_LATIN2',
    hu: 'PC852_LATIN2',
    hr: 'PC852_LATIN2',
    sl: 'PC852_LATIN2',
    ro: 'PC852_LATIN2',
    tr: 'PC857_TURKISH',
    el: 'PC737_GREEK',
    ru: 'WPC1251_CYRILLIC',
    uk: 'WPC1251_CYRILLIC',
    bg: 'WPC1251_CYRILLIC',
    sr: 'WPC1251_CYRILLIC',
    he: 'PC862_HEBREW',
    ar: 'PC864_ARABIC',
  } satisfies Record<string, CodePage>) as Array<[string, CodePage]>,
);

/**
 * Code page for a BCP 47 language tag ("fr", "pl-PL"); Western European PC858 (with €) otherwise.
 * Right-to-left scripts get their code page but are neither shaped nor reordered here.
 */
export function codePageForLanguage(language: string | undefined): CodePage {
  const primary = language?.toLowerCase().split(/[-_]/)[0] ?? '';
  return LANGUAGE_CODE_PAGES.get(primary) ?? DEFAULT_CODE_PAGE;
}

export function codePageByNumber(commandSet: CommandSet, number: number): CodePage | undefined {
  return (Object.keys(CODE_PAGES) as CodePage[]).find((name) => CODE_PAGES[name][commandSet] === number);
}

const encodableCache = new Map<string, string>();

/** C0 controls, DEL and C1 controls: bytes a printer reads as commands. */
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/**
 * Drops every control character from printed text. Text on a document is data (a customer's name, a
 * medicine, a footer) whatever its source, so it can never carry a command: an ESC p in a name would kick the
 * drawer, a GS V would cut the paper. The renderers emit their own commands outside the text.
 */
export function printableText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}

/**
 * Encodes for the printer; control characters are dropped (`printableText`), characters the page lacks lose
 * their accents (NFKD) or become "?", so one column stays one byte and the layout holds.
 */
export function encodeForCodePage(raw: string, codePage: CodePage): Buffer {
  const encoding = CODE_PAGES[codePage].iconv;
  if (/^[\x20-\x7e]*$/.test(raw)) return Buffer.from(raw, 'latin1');
  let safe = '';
  for (const char of printableText(raw).normalize('NFC')) {
    if (char.charCodeAt(0) < 0x80) {
      safe += char;
      continue;
    }
    const key = `${codePage}:${char}`;
    let replacement = encodableCache.get(key);
    if (replacement === undefined) {
      replacement = fallbackFor(char, encoding);
      encodableCache.set(key, replacement);
    }
    safe += replacement;
  }
  return iconv.encode(safe, encoding);
}

function fallbackFor(char: string, encoding: string): string {
  if (canEncode(char, encoding)) return char;
  const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
  return base.length === 1 && canEncode(base, encoding) ? base : '?';
}

function canEncode(char: string, encoding: string): boolean {
  const bytes = iconv.encode(char, encoding);
  return bytes.length === 1 && !(bytes[0] === 0x3f && char !== '?');
}

export function decodeFromCodePage(bytes: Uint8Array, codePage: CodePage): string {
  return iconv.decode(Buffer.from(bytes), CODE_PAGES[codePage].iconv);
}
