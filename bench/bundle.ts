// The JavaScript a browser loads before any lazy chunk (DESIGN §7: under 300 KB gzip for the list screen).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export function benchBundle(webDir = 'dist/web') {
  const index = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const scripts = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const files = [...new Set(scripts)];
  let gzip = 0;
  let raw = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(webDir, file));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { initialJsFiles: files.length, initialJsKb: Math.round(raw / 1024), initialJsGzipKb: Math.round(gzip / 1024) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(benchBundle());
}
