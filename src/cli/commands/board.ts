import { UsageError, parseFlags, subcommandError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';

export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values } = parseFlags(rest, { ...DB_FLAG, org: { type: 'string' }, name: { type: 'string' }, private: { type: 'boolean' } });
  if (!values.org) throw new UsageError(`board ${sub ?? ''} needs --org`);
  const org = values.org;
  if (sub === 'create') {
    if (!values.name) throw new UsageError('board create needs --name');
    const board = await withEngine(values.db, (e) => e.workspace(org).boards.create({ name: values.name!, isPublic: !values.private }));
    print(values.json, { ...board }, `Created board ${board.id} (${board.name}, /${board.slug}).`);
    return;
  }
  if (sub === 'list') {
    const boards = await withEngine(values.db, async (e) => {
      const all = [];
      let cursor: string | undefined;
      do {
        const page = await e.workspace(org).boards.list({ limit: 100, ...(cursor ? { cursor } : {}) });
        all.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return all;
    });
    print(values.json, { data: boards }, boards.map((b) => `${b.id}  ${b.slug}  ${b.name}${b.isPublic ? '' : ' (private)'}`).join('\n') || 'No boards.');
    return;
  }
  throw subcommandError('board', sub, ['create', 'list']);
}
