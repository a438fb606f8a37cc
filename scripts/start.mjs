// `npm start`: builds the web app when its sources are newer than the build, bundles the server the
// same way (esbuild, into dist/server/main.mjs), then runs the server (migrations first) in this process.
// The bundle starts faster and holds less memory than compiling TypeScript on the fly with tsx; without
// esbuild, or with MARQUEE_SERVER_FROM_SOURCE=1, the server runs from its sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Bundles src/server/main.ts when its sources are newer than the bundle; answers whether a fresh bundle exists. */
async function bundleServer() {
  const bundle = path.join(root, 'dist/server/main.mjs');
  const serverSources = [
    'src/server',
    'src/shared',
    'package-lock.json',
    'tsconfig.json',
    'scripts/start.mjs',
  ];
  const bundledAt = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
  if (Math.max(...serverSources.map(newestMtime)) <= bundledAt) return bundle;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  // Written aside and renamed, so a second `npm start` at the same moment never runs half a file.
  const partial = `${bundle}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [path.join(root, 'src/server/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    outfile: partial,
    logLevel: 'warning',
  });
  fs.renameSync(partial, bundle);
  return bundle;
}

process.chdir(root);
const bundle = process.env.MARQUEE_SERVER_FROM_SOURCE === '1' ? null : await bundleServer();
if (process.argv.includes('--build-only')) {
  // The Dockerfile builds the web app and the server bundle into the image, then runs the bundle.
  if (!bundle) throw new Error('esbuild is needed to bundle the server');
} else if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: path.join(root, 'tsconfig.json') });
  await import('../src/server/main.ts');
}
