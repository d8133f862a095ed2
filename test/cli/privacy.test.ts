import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { contactExportSchema } from '../../src/schemas/index.js';
import { succeeds } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'feedback-cli-privacy-'));
const db = join(dir, 'cli.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command on this suite's database: its stdout (a failed command is the rejection, with its code and stdout). */
const command = (...args: string[]) => succeeds(...args, '--db', db).then((stdout) => ({ stdout }));

describe('feedback-service contact export|erase and the notification settings', () => {
  it('answers an access request and an erasure in one command each', async () => {
    const engine = await createEngine({ database: db, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
    const w = engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const post = await w.posts.create(board.id, { title: 'Dark mode' });
    const { contact } = await w.contacts.identify({
      externalUserId: 'u-7',
      email: 'grace@example.com',
      name: 'Grace Hopper',
    });
    await w.participation.vote({
      postId: post.id,
      email: 'grace@example.com',
      userId: 'u-7',
      vouched: true,
      notifyMe: false,
    });
    await engine.close();

    // Printed as one JSON document, as the export's schema says.
    const printed = contactExportSchema.parse(
      JSON.parse((await command('contact', 'export', contact.id, '--org', org.id)).stdout),
    );
    expect(printed.contact).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com' });
    expect(printed.votes).toHaveLength(1);
    // Or to a file only its owner can read.
    const file = join(dir, 'grace.json');
    const wrote = JSON.parse(
      (await command('contact', 'export', contact.id, '--org', org.id, '--out', file, '--json')).stdout,
    );
    expect(wrote).toEqual({ out: file, contactId: contact.id, erased: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).contact.id).toBe(contact.id);

    const erased = await command('contact', 'erase', contact.id, '--org', org.id);
    expect(erased.stdout).toContain(`Erased contact ${contact.id}`);
    expect(erased.stdout).toContain('1 vote,');
    expect(erased.stdout).toContain('suppression list');
    const after = contactExportSchema.parse(
      JSON.parse((await command('contact', 'export', contact.id, '--org', org.id)).stdout),
    );
    expect(after).toMatchObject({
      contact: null,
      votes: [],
      events: [],
      erasure: { suppressionDigest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const again = await command('contact', 'erase', contact.id, '--org', org.id, '--json').catch(
      (err: { code: number; stdout: string }) => err,
    );
    expect(again).toMatchObject({ code: 1 });
    expect(JSON.parse((again as { stdout: string }).stdout).error).toMatchObject({
      code: 'ERR_NOT_FOUND',
      message: expect.stringContaining('was erased at'),
    });
  });

  it('org update --notify-admin-created turns mail to admin-created contacts on and off; serve refuses a --public-url that is not one', async () => {
    const org = JSON.parse((await command('org', 'create', '--name', 'Admins', '--json')).stdout);
    expect(org.notifyAdminCreated).toBe(false);
    expect(
      JSON.parse((await command('org', 'update', org.id, '--notify-admin-created', 'on', '--json')).stdout)
        .notifyAdminCreated,
    ).toBe(true);
    expect((await command('org', 'update', org.id, '--notify-admin-created', 'off')).stdout).not.toContain(
      'admin-created contacts on',
    );
    await expect(command('org', 'update', org.id, '--notify-admin-created', 'yes')).rejects.toMatchObject({ code: 2 });
    const refused = await command('serve', '--port', '0', '--public-url', 'feedback.example.com', '--json').catch(
      (err: { code: number; stdout: string }) => err,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect(JSON.parse((refused as { stdout: string }).stdout).error.message).toContain('--public-url');
  });
});
