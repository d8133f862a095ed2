import { html as reference } from '@remix-run/html-template';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from '../../../src/engine/shared/html.js';

describe('the html template tag', () => {
  it('escapes the five characters that can end text or an attribute, and nothing else', () => {
    const text = `<script>alert("x" & 'y')</script> ünïcödé → ✓`;
    expect(String(html`<p title="${text}">${text}</p>`)).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt; ünïcödé → ✓">&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt; ünïcödé → ✓</p>',
    );
    expect(escapeHtml('plain text')).toBe('plain text');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('puts HTML it made in as it is, and escapes HTML-looking strings it did not make', () => {
    const inner = html`<b>${'a < b'}</b>`;
    expect(inner).toBeInstanceOf(SafeHtml);
    expect(String(html`<p>${inner}${'<b>'}</p>`)).toBe('<p><b>a &lt; b</b>&lt;b&gt;</p>');
  });

  it('writes lists item by item, null and undefined as nothing, numbers and booleans as text', () => {
    expect(String(html`<ul>${['<1>', html`<li>2</li>`, [null, undefined, 3]]}</ul>`)).toBe(
      '<ul>&lt;1&gt;<li>2</li>3</ul>',
    );
    expect(String(html`${0}|${false}|${true}|${null}|${undefined}`)).toBe('0|false|true||');
  });

  it('html.raw puts values in as they are', () => {
    expect(String(html.raw`<div>${'<em>trusted</em>'}${[1, null, '<br>']}</div>`)).toBe(
      '<div><em>trusted</em>1<br></div>',
    );
  });

  it('writes what @remix-run/html-template (the tag it replaced) writes, for any values', () => {
    type Value = string | number | boolean | null | undefined | Value[];
    const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ unit: 'binary' }),
        fc.constantFrom('&', '<', '>', '"', "'", '&amp;', '<b>x</b>'),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.array(tie('v'), { maxLength: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), fc.string(), (values, text) => {
        const strings = Object.assign(values.map(() => `<i a="${text}">`).concat(['</i>']), {
          raw: [] as string[],
        }) as unknown as TemplateStringsArray;
        expect(String(html(strings, ...values))).toBe(String(reference(strings, ...values)));
        expect(String(html.raw(strings, ...values))).toBe(String(reference.raw(strings, ...values)));
        // Nested: a fragment of each is put in as it is by its own tag.
        expect(String(html`<p>${html(strings, ...values)}</p>`)).toBe(
          String(reference`<p>${reference(strings, ...values)}</p>`),
        );
      }),
      { numRuns: 500 },
    );
  });
});
