import { expect, it } from 'vitest';
import { oneTypoAway } from '../../../src/engine/search/index.js';
import { search as searchStore } from '../../../src/engine/store/index.js';
import { describeEngine } from '../../helpers/harness.js';

// A search that forgives (issue 52): stems in the workspace's language (English unless set), one typo in a word of 5
// letters or more, the team's synonyms; what was typed ranks first; quoted words are taken as typed. The same on both
// databases, before and after PostgreSQL's search chore lists the new words.

describeEngine('a search that forgives', (h) => {
  async function workspace() {
    const org = await h.engine.organizations.create({ name: 'Forgive', plan: 'paid' });
    const w = h.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    for (const title of [
      'Dark mode for dashboard',
      'Dashboard export to CSV',
      'Exporting reports by email',
      'SAML single sign-on',
      'Slack notifications',
      'Expert mode settings',
    ])
      await w.posts.create(board.id, { title });
    const search = async (q: string) =>
      (await w.portal.posts(board.id, { q, limit: 50 })).data.map((p) => p.title).sort();
    const ranked = async (q: string) => (await w.portal.posts(board.id, { q, limit: 50 })).data.map((p) => p.title);
    return { org, w, search, ranked };
  }

  for (const listed of [false, true])
    it(`forgives stems, one typo and synonyms${listed ? ' (after the search chore ran: the words listed on PostgreSQL)' : ''}`, async () => {
      const { org, search, ranked } = await workspace();
      if (listed) await searchStore.searchChore(h.engine.db);
      // Stems: "dashboards" and "exporting" find what "dashboard" and "export" find.
      expect(await search('dashboards')).toEqual(['Dark mode for dashboard', 'Dashboard export to CSV']);
      expect(await search('exporting')).toEqual(['Dashboard export to CSV', 'Exporting reports by email']);
      // What was typed ranks first: "Exporting" matches as typed, "export" only by its stem.
      expect((await ranked('exporting'))[0]).toBe('Exporting reports by email');
      // One typo in a word of five letters or more; not two; not in a shorter word; never in a quoted word.
      expect(await search('dashbord')).toEqual(['Dark mode for dashboard', 'Dashboard export to CSV']);
      expect(await search('dashbaord')).toEqual(['Dark mode for dashboard', 'Dashboard export to CSV']);
      expect(await search('dsahbord')).toEqual([]);
      expect(await search('slak')).toEqual([]);
      expect(await search('"dashbord"')).toEqual([]);
      // A word the posts hold is not "corrected" into its neighbours: "export" does not find "Expert".
      expect(await search('export')).toEqual(['Dashboard export to CSV', 'Exporting reports by email']);
      // Synonyms, as the team sets them, both ways and as phrases.
      expect(await search('sso')).toEqual([]);
      await h.engine.organizations.update(org.id, { searchSynonyms: [['SSO', 'single sign-on', 'saml']] });
      expect(await search('sso')).toEqual(['SAML single sign-on']);
      expect(await search('single sign on')).toEqual(['SAML single sign-on']);
      // The whole query still needs every word: forgiven words only stand in for theirs.
      expect(await search('dashbord slack')).toEqual([]);
      expect(await search('dark dashbords')).toEqual(['Dark mode for dashboard']);
      // Stems off: words as written (the typo still forgiven).
      await h.engine.organizations.update(org.id, { searchStems: 'none' });
      expect(await search('exporting')).toEqual(['Exporting reports by email']);
    });

  it('refuses stems in a language it does not have, and synonyms that are not groups of words', async () => {
    const { org } = await workspace();
    await expect(h.engine.organizations.update(org.id, { searchStems: 'klingon' as never })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
    await expect(h.engine.organizations.update(org.id, { searchSynonyms: [['sso']] })).rejects.toThrow(
      'synonyms: group 1 must name 2 to 10 words or phrases',
    );
    await expect(h.engine.organizations.update(org.id, { searchSynonyms: [['sso', '!!']] })).rejects.toThrow(
      'synonyms: group 1: each word or phrase is 1 to 60 characters, with a letter or digit',
    );
  });
});

it('one typo away: a letter left out, two swapped, one changed, one added', () => {
  const near = oneTypoAway('dashbord');
  for (const w of ['dashboard', 'dahbord', 'dsahbord', 'dashbore', 'dashbordx']) expect(near).toContain(w);
  expect(near).not.toContain('dashbord');
  expect(near).not.toContain('dashbaordx');
});
