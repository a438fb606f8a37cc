import { relabel } from './defaults';
import { isGroup, type CriteriaGroup, type CriteriaNode } from './tree';

/** A node's position: child indexes from the root group ([] is the root). */
export type NodePath = readonly number[];

/** The tree with the node at `path` replaced by `update(node)`, groups relabelled by position. */
export function updateNode(
  root: CriteriaGroup,
  path: NodePath,
  update: (node: CriteriaNode) => CriteriaNode | null,
) {
  const walk = (node: CriteriaNode, rest: NodePath): CriteriaNode | null => {
    if (!rest.length) return update(node);
    if (!isGroup(node)) return node;
    const [index, ...tail] = rest;
    const children = node.children
      .map((child, i) => (i === index ? walk(child, tail) : child))
      .filter((child): child is CriteriaNode => child !== null);
    return { ...node, children };
  };
  return relabel(
    (walk(root, path) as CriteriaGroup | null) ?? { label: '1', predicate: 'and', children: [] },
  );
}

/** The tree with `child` added at the end of the group at `path`. */
export const appendChild = (root: CriteriaGroup, path: NodePath, child: CriteriaNode) =>
  updateNode(root, path, (node) => (isGroup(node) ? { ...node, children: [...node.children, child] } : node));

/** The tree without the sub-tree at `path`. */
export const removeNode = (root: CriteriaGroup, path: NodePath) => updateNode(root, path, () => null);
