// Folder-level import cycles: `import-x/no-cycle` sees files, but two concept folders can import each
// other through different files without any file cycle. This rule maps every import under `root` to the
// first folder below it and reports an import whose target folder leads back to the importer's folder.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST_FILE = /\.test\.(ts|tsx)$/;

/** The folder directly under `root` that holds `file`, or null for files at the root itself. */
function folderOf(root, file) {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

function resolveSpecifier(file, specifier, alias, root) {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  if (alias && specifier.startsWith(alias)) return path.join(root, specifier.slice(alias.length));
  return null;
}

function importedFolders(file, text, { root, alias }) {
  const folders = new Set();
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = resolveSpecifier(file, fileName, alias, root);
    const folder = target && folderOf(root, target);
    if (folder) folders.add(folder);
  }
  return folders;
}

function listSourceFiles(dir) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listSourceFiles(full));
    else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) files.push(full);
  }
  return files;
}

const graphs = new Map();

/** folder → (file → folders it imports), built once per lint run and per root. */
function folderGraph(options) {
  let graph = graphs.get(options.root);
  if (!graph) {
    graph = new Map();
    for (const file of listSourceFiles(options.root)) {
      const folder = folderOf(options.root, file);
      if (!folder) continue;
      if (!graph.has(folder)) graph.set(folder, new Map());
      graph.get(folder).set(file, importedFolders(file, fs.readFileSync(file, 'utf8'), options));
    }
    graphs.set(options.root, graph);
  }
  return graph;
}

function edgesOf(graph, folder) {
  const edges = new Set();
  for (const targets of graph.get(folder)?.values() ?? []) for (const t of targets) edges.add(t);
  edges.delete(folder);
  return edges;
}

/** The shortest folder path from `start` to `goal`, or null. */
function pathBetween(graph, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    if (folder === goal) {
      const steps = [];
      for (let at = goal; at !== null; at = previous.get(at)) steps.unshift(at);
      return steps;
    }
    for (const next of edgesOf(graph, folder)) {
      if (!previous.has(next)) {
        previous.set(next, folder);
        queue.push(next);
      }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between the folders directly under a root folder' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, alias: { type: 'string' } },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'Folders import each other in a circle: {{circle}}.' },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0].root);
    const options = { root, alias: context.options[0].alias };
    const filename = context.filename;
    const from = folderOf(root, filename);
    if (!from || TEST_FILE.test(filename)) return {};
    const graph = folderGraph(options);
    // The file being linted may have changed since the graph was built (an editor session).
    if (!graph.has(from)) graph.set(from, new Map());
    graph.get(from).set(filename, importedFolders(filename, context.sourceCode.text, options));

    function check(node) {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = resolveSpecifier(filename, node.source.value, options.alias, root);
      const to = target && folderOf(root, target);
      if (!to || to === from) return;
      const back = pathBetween(graph, to, from);
      if (back) context.report({ node, messageId: 'cycle', data: { circle: [from, ...back].join(' → ') } });
    }

    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
