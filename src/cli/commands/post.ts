import { parseFlags, UsageError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';

export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values } = parseFlags(rest, {
    ...DB_FLAG,
    org: { type: 'string' },
    board: { type: 'string' },
    title: { type: 'string' },
    'body-text': { type: 'string' },
    contact: { type: 'string' },
  });
  if (sub !== 'create') throw new UsageError('post needs create');
  if (!values.org || !values.board || !values.title) throw new UsageError('post create needs --org, --board and --title');
  const text = values['body-text'];
  const post = await withEngine(values.db, (e) =>
    e.workspace(values.org!).posts.create(values.board!, {
      title: values.title!,
      ...(text !== undefined ? { body: { json: { type: 'text', text }, text } } : {}),
      ...(values.contact ? { contactId: values.contact } : {}),
    }),
  );
  print(values.json, { ...post }, `Created post ${post.id} (/${post.slug}) on board ${post.boardId}.`);
}
