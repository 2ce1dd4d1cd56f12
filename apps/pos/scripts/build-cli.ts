import { buildTillUi } from './build';

await buildTillUi();
