import { useEffect, useMemo, useState } from 'react';
import {
  applyNodeChanges,
  Background,
  Controls,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { JourneyProblem } from '@shared/journeys/validate';
import { connect, moveSteps, type CanvasDefinition, type XY } from './definition';
import { edgeOfId, ENTRY_NODE_ID, toGraph, type JourneyNode, type StepCounts } from './graph';
import { EntryNodeView, StepNodeView } from './step-node';

const NODE_TYPES = { step: StepNodeView, entry: EntryNodeView };
const DELETE_KEYS = ['Backspace', 'Delete'];

interface JourneyCanvasProps {
  definition: CanvasDefinition;
  problems: readonly JourneyProblem[];
  counts?: ReadonlyMap<string, StepCounts>;
  selectedId: string | null;
  readOnly: boolean;
  onUpdate: (change: (definition: CanvasDefinition) => CanvasDefinition) => void;
  onSelect: (id: string | null) => void;
  onRemoveStep: (id: string) => void;
  /** Changes when the steps were laid out again: the view fits them anew. */
  fitKey: number;
}

const FIT_VIEW = { padding: 0.2, maxZoom: 1 };

/** The selection a batch of selection changes leaves: the element selected last, or none if the current one was left. */
function selectionAfter(
  changes: readonly (NodeChange<JourneyNode> | EdgeChange)[],
  current: string | null,
): string | null | undefined {
  const chosen = changes.findLast((change) => change.type === 'select' && change.selected);
  if (chosen && 'id' in chosen) return chosen.id;
  const left = changes.some(
    (change) => change.type === 'select' && !change.selected && change.id === current,
  );
  return left ? null : undefined;
}

/**
 * The journey drawn with React Flow: zoom and pan, Tab through the steps, Enter to select one, arrows to
 * move it, Delete to remove it; drag from an exit's handle to a step to connect them.
 */
export function JourneyCanvas(props: JourneyCanvasProps) {
  const { definition, problems, counts, selectedId, readOnly, onUpdate, onSelect, onRemoveStep, fitKey } =
    props;
  const { fitView } = useReactFlow();
  useEffect(() => {
    if (fitKey === 0) return;
    const frame = requestAnimationFrame(() => void fitView(FIT_VIEW));
    return () => cancelAnimationFrame(frame);
  }, [fitKey, fitView]);
  const graph = useMemo(
    () => toGraph(definition, { problems, counts, selectedId, readOnly }),
    [definition, problems, counts, selectedId, readOnly],
  );
  // React Flow measures the nodes it draws; the sizes are kept when the definition redraws them.
  const [nodes, setNodes] = useState<JourneyNode[]>(graph.nodes);
  useEffect(() => {
    setNodes((drawn) => {
      const measured = new Map(drawn.map((node) => [node.id, node.measured]));
      return graph.nodes.map((node) => ({ ...node, measured: measured.get(node.id) })) as JourneyNode[];
    });
  }, [graph.nodes]);

  const handleNodesChange = (changes: NodeChange<JourneyNode>[]) => {
    setNodes((drawn) => applyNodeChanges(changes, drawn));
    const dropped = new Map<string, XY>();
    for (const change of changes) {
      if (change.type === 'position' && change.position && change.dragging === false)
        dropped.set(change.id, change.position);
      if (change.type === 'remove' && change.id !== ENTRY_NODE_ID) onRemoveStep(change.id);
    }
    if (dropped.size && !readOnly) onUpdate((current) => moveSteps(current, dropped));
    const selection = selectionAfter(changes, selectedId);
    if (selection !== undefined) onSelect(selection);
  };

  const handleEdgesChange = (changes: EdgeChange[]) => {
    for (const change of changes) {
      const edge = change.type === 'remove' ? edgeOfId(change.id) : null;
      if (edge && !readOnly) onUpdate((current) => connect(current, edge.from, edge.exit, null));
    }
    const selection = selectionAfter(changes, selectedId);
    if (selection !== undefined) onSelect(selection);
  };

  const handleConnect = ({ source, sourceHandle, target }: Connection) => {
    if (readOnly || target === ENTRY_NODE_ID) return;
    if (source === ENTRY_NODE_ID) onUpdate((current) => ({ ...current, start: target }));
    else onUpdate((current) => connect(current, source, sourceHandle ?? 'next', target));
  };

  return (
    <ReactFlow<JourneyNode>
      nodes={nodes}
      edges={graph.edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={handleNodesChange}
      onEdgesChange={handleEdgesChange}
      onConnect={handleConnect}
      isValidConnection={(connection) => connection.target !== ENTRY_NODE_ID}
      onPaneClick={() => onSelect(null)}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      deleteKeyCode={readOnly ? null : DELETE_KEYS}
      fitView
      fitViewOptions={FIT_VIEW}
      minZoom={0.2}
      maxZoom={2}
      defaultEdgeOptions={{ labelBgPadding: [6, 2], labelBgBorderRadius: 4 }}
      ariaLabelConfig={{
        'node.a11yDescription.default':
          'Press enter or space to select a step and edit it in the side panel. Press delete to remove it.',
      }}
    >
      <Background gap={20} />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
