// An SMTP server for the mail benchmark, in its own process: accepts every message, counts them, and reports its port
// (and, asked with 'count', how many it received and the last one's bytes).
import { SMTPServer } from 'smtp-server';

let received = 0;
let last = '';
/** How long it takes to accept a message (a remote relay's round trips and queueing); 0 on loopback. */
let delayMs = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  maxClients: 100,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      received++;
      last = Buffer.concat(chunks).toString('latin1');
      if (delayMs > 0) setTimeout(callback, delayMs);
      else callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
process.on('message', (m) => {
  if (m === 'count') process.send({ received, last });
  else if (typeof m === 'object' && m.delayMs !== undefined) delayMs = m.delayMs;
});
process.on('disconnect', () => process.exit(0));
