/**
 * A post body from plain text (the portal's form, the console's edit): one paragraph per line, as the rich-text
 * document `body.json` holds, with the text beside it.
 */
export function plainBody(text: string): { json: { type: 'doc'; content: unknown[] }; text: string } {
  const paragraphs = text
    .split(/\r?\n/)
    .map((line) => (line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' }));
  return { json: { type: 'doc', content: paragraphs }, text };
}
