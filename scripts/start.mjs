// `npm start`: builds the web app when its sources are newer than the build, then runs the server
// (migrations first) in this process.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/web/index.html');
const webSources = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

function newestMtime(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
if (!process.env.WEB_DIR && Math.max(...webSources.map(newestMtime)) > builtAt) {
  console.log('Building the web app…');
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register({ tsconfig: path.join(root, 'tsconfig.json') });
await import('../src/server/main.ts');
