// A webhook receiver for the delivery benchmark: answers every request 200 "ok" and reports its port.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
