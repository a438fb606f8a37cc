import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import noFolderCycle from './no-folder-cycle.js';

let root: string;

function write(relative: string, text: string) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function lint(relative: string) {
  const linter = new Linter({ cwd: root });
  const file = path.join(root, relative);
  return linter.verify(
    fs.readFileSync(file, 'utf8'),
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { local: { rules: { 'no-folder-cycle': noFolderCycle } } },
        rules: { 'local/no-folder-cycle': ['error', { root: 'server', alias: '@server/' }] },
      },
    ],
    file,
  );
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycle-'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('no-folder-cycle', () => {
  it('reports two folders that import each other through different files', () => {
    write(
      'server/items/service.ts',
      "import { audit } from '../audit/service';\nexport const save = audit;\n",
    );
    write('server/audit/service.ts', 'export const audit = 1;\n');
    write(
      'server/audit/names.ts',
      "import { save } from '@server/items/service';\nexport const names = save;\n",
    );

    const messages = lint('server/items/service.ts');

    expect(messages.map((m) => m.message)).toEqual([
      'Folders import each other in a circle: items → audit → items.',
    ]);
    expect(lint('server/audit/names.ts')).toHaveLength(1);
  });

  it('passes imports that point one way, within a folder and from files at the root', () => {
    write('server/items/service.ts', "import { audit } from '../audit/service';\nimport { x } from './x';\n");
    write('server/items/x.ts', 'export const x = 1;\n');
    write('server/audit/service.ts', "import { config } from '../config';\nexport const audit = config;\n");
    write('server/config.ts', "import { save } from './items/service';\nexport const config = save;\n");

    expect(lint('server/items/service.ts')).toEqual([]);
    expect(lint('server/audit/service.ts')).toEqual([]);
  });

  it('reports a longer circle with its path', () => {
    write('server/a/index.ts', "import '../b/index';\n");
    write('server/b/index.ts', "import '../c/index';\n");
    write('server/c/index.ts', "import '../a/index';\n");

    expect(lint('server/a/index.ts').map((m) => m.message)).toEqual([
      'Folders import each other in a circle: a → b → c → a.',
    ]);
  });
});
