import type { TestPage } from './document-types';

/** Letters outside ASCII that the common code pages carry: they print right only when the page matches. */
export const CODE_PAGE_SAMPLE = 'àáâäçèéêëìíîïñòóôöùúûü ÀÄÇÉÑÖÜ ß £ €';

export interface TestPageInput {
  shopName: string;
  branchName?: string;
  printerName: string;
  printedAtLocal: string;
  transport: string;
  address: string;
  paperWidthMm: number;
  commandSet: string;
  codePage: string;
}

export function buildTestPage(input: TestPageInput): TestPage {
  return {
    kind: 'test-page',
    shopName: input.shopName,
    ...(input.branchName && { branchName: input.branchName }),
    printerName: input.printerName,
    printedAtLocal: input.printedAtLocal,
    connection: `${input.transport} ${input.address}`,
    paper: `${input.paperWidthMm} mm`,
    commandSet: input.commandSet,
    codePage: input.codePage,
  };
}
