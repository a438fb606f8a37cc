import http from 'node:http';

/**
 * The visualisation service of the end-to-end server (started by e2e/fake-geocoder.ts beside the
 * geocoder): `GET /report` answers counters that grow by one per request, and refuses a missing header.
 */
export function startFakeVisualisation(port: number) {
  let calls = 0;
  const server = http.createServer((req, res) => {
    if (req.url !== '/report') return void res.writeHead(404).end();
    if (req.headers['x-report-key'] !== 'e2e-key') return void res.writeHead(401).end('{}');
    calls++;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ visits: 10 * calls, signups: calls }));
  });
  return new Promise<http.Server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
