// The JavaScript a browser loads for a screen before any lazy chunk of that screen (DESIGN §7: under
// 300 KB gzip for the list screen). Read from Vite's manifest: the entry, the screen's route chunk and
// everything they import statically.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

// Each screen's route modules: the workspace screens also load the workspace shell (header, navigation
// and drawers) before they paint.
const SHELL = 'app/shell/workspace-shell.tsx';
const SCREENS: Record<string, string[]> = {
  'sign-in (welcome)': ['features/auth/welcome-route.tsx'],
  'item list (list-items)': [SHELL, 'features/items/list-items-route.tsx'],
  'single item': [SHELL, 'features/items/routes/single-item.ts'],
};

// Lazy chunks loaded only where they are used: measured beyond what the entry already loaded.
const LAZY: Record<string, string> = {
  'email editor (lazy: GrapesJS + newsletter preset)': 'components/email-editor/email-editor.tsx',
};

export function benchBundle(webDir = 'dist/web') {
  const manifest = JSON.parse(fs.readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const gzipOf = (file: string) =>
    zlib.gzipSync(fs.readFileSync(path.join(webDir, file)), { level: 9 }).length;

  function closure(keys: string[]) {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key].imports?.forEach(visit);
    };
    keys.forEach(visit);
    return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  }

  const rows: Record<string, { files: number; gzipKb: number }> = {};
  for (const [screen, sources] of Object.entries(SCREENS)) {
    const routeKeys = sources.map((src) => {
      const key = Object.keys(manifest).find((k) => k.endsWith(src));
      if (!key) throw new Error(`${src} is not in the manifest: rename it in bench/bundle.ts`);
      return key;
    });
    const files = closure([entryKey, ...routeKeys]);
    rows[screen] = {
      files: files.length,
      gzipKb: Math.round(files.reduce((sum, f) => sum + gzipOf(f), 0) / 1024),
    };
  }
  const entryFiles = new Set(closure([entryKey]));
  for (const [chunk, src] of Object.entries(LAZY)) {
    const key = Object.keys(manifest).find((k) => k.endsWith(src));
    if (!key) throw new Error(`${src} is not in the manifest: rename it in bench/bundle.ts`);
    const files = closure([key]).filter((f) => !entryFiles.has(f));
    rows[chunk] = {
      files: files.length,
      gzipKb: Math.round(files.reduce((sum, f) => sum + gzipOf(f), 0) / 1024),
    };
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(benchBundle());
  console.log('budget: the item list screen under 300 KB gzip');
}
