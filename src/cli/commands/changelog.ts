import { UsageError, parseFlags, subcommandError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';

export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values, positionals } = parseFlags(rest, {
    ...DB_FLAG,
    org: { type: 'string' },
    board: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
  });
  if (!values.org) throw new UsageError(`changelog ${sub ?? ''} needs --org`);
  const org = values.org;
  if (sub === 'create') {
    if (!values.board || !values.title) throw new UsageError('changelog create needs --board and --title');
    const entry = await withEngine(values.db, (e) =>
      e.workspace(org).changelog.create({ boardId: values.board!, title: values.title!, ...(values.body ? { body: values.body } : {}) }),
    );
    print(values.json, { ...entry }, `Created draft changelog entry ${entry.id} (/${entry.slug}).`);
    return;
  }
  if (sub === 'publish') {
    const id = positionals[0];
    if (!id) throw new UsageError('changelog publish needs ENTRY_ID');
    const entry = await withEngine(values.db, (e) => e.workspace(org).changelog.publish(id));
    print(values.json, { ...entry }, `Published changelog entry ${entry.id} at ${entry.publishedAt}.`);
    return;
  }
  throw subcommandError('changelog', sub, ['create', 'publish']);
}
