// npm run contract:wire: write src/contract/wire.ts (what the client carries of each operation) from the rows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATIONS } from '../src/contract/operations.js';
import { wireModule } from '../src/contract/wire-of.js';

writeFileSync(join(import.meta.dirname, '../src/contract/wire.ts'), wireModule(OPERATIONS));
