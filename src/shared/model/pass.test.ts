import { invertOps } from './invert';
import {
  changesSince,
  passItem,
  replayCopy,
  replayItem,
  schemasChanged,
  stepsOf,
  type AppliedChange,
} from './pass';
import type { ContentModelDoc, ModelOp } from './types';

const model: ContentModelDoc = {
  domains: [
    {
      name: 'pages',
      title: 'Pages',
      schemas: [
        {
          name: 'page',
          title: 'Page',
          pluralTitle: 'Pages',
          icon: 'file',
          fields: [
            { key: 'name', label: 'Name', type: 'text', required: true },
            { key: 'author', label: 'Author', type: 'text' },
            { key: 'minutes', label: 'Minutes', type: 'text' },
          ],
          topFields: ['name'],
        },
      ],
    },
  ],
  blockTypes: [],
};

/** The changes a model goes through, each made on the model the one before left. */
function changesOf(doc: ContentModelDoc, sets: ModelOp[][], reverts?: { at: number; of: number }) {
  const changes: AppliedChange[] = [];
  let current = doc;
  sets.forEach((ops, i) => {
    const plan = stepsOf(current, ops);
    const reverted = reverts?.at === i ? changes[reverts.of] : undefined;
    changes.push({
      version: i + 1,
      plan,
      schemas: schemasChanged(plan, reverted !== undefined),
      ...(reverted && {
        reverts: { id: `c${reverted.version}`, version: reverted.version, ops: reverted.plan.ops },
      }),
    });
    current = plan.steps[plan.steps.length - 1];
  });
  return { changes, doc: current };
}

const rename: ModelOp = { op: 'renameField', schema: 'page', from: 'author', to: 'writer' };
const retype: ModelOp = {
  op: 'retypeField',
  schema: 'page',
  key: 'minutes',
  field: { key: 'minutes', label: 'Minutes', type: 'number' },
};

describe('replayItem', () => {
  it('brings a row through every change since its version as the changes one after the other would', () => {
    const { changes, doc } = changesOf(model, [[rename], [retype]]);
    const data = { name: 'Home', author: 'Ann', minutes: '4' };
    const replayed = replayItem(changesSince(changes, 'page', 0), 'page', data, {}, doc);
    const first = passItem(changes[0].plan, 'page', data, {});
    const second = passItem(changes[1].plan, 'page', first.data, {});
    expect(replayed.data).toEqual(second.data);
    expect(replayed.data).toEqual({ name: 'Home', writer: 'Ann', minutes: 4 });
    expect(replayed).toMatchObject({ changed: true, hasErrors: false, failed: [] });
    // A row already through the first change replays the second only.
    expect(changesSince(changes, 'page', 1).map((change) => change.version)).toEqual([2]);
    expect(data).toEqual({ name: 'Home', author: 'Ann', minutes: '4' });
  });

  it('flags a value that does not convert, and a required field without a value, as incomplete', () => {
    const { changes, doc } = changesOf(model, [
      [retype, { op: 'updateField', schema: 'page', key: 'author', patch: { required: true } }],
    ]);
    const unconverted = replayItem(changes, 'page', { name: 'A', author: 'B', minutes: 'ten' }, {}, doc);
    expect(unconverted).toMatchObject({ hasErrors: true, data: { minutes: 'ten' } });
    expect(unconverted.failed).toEqual([expect.stringContaining('minutes')]);
    const missing = replayItem(changes, 'page', { name: 'A', minutes: '3' }, {}, doc);
    expect(missing).toMatchObject({ hasErrors: true, data: { minutes: 3 } });
  });

  it('composes a change and its revert in one replay, putting back what the change took out', () => {
    const removal: ModelOp[] = [{ op: 'removeField', schema: 'page', key: 'author' }];
    const inverse = invertOps(model, removal);
    const { changes, doc } = changesOf(model, [removal, inverse], { at: 1, of: 0 });
    const data = { name: 'Home', author: 'Ann' };
    const replayed = replayItem(changes, 'page', data, {}, doc);
    expect(replayed.data).toEqual(data);
    expect(replayed.kept.get(1)).toEqual({ '0': [{ at: ['author'], value: 'Ann' }] });
    // A row the removal's migration already reached gets the stored kept values back.
    const migrated = replayItem(changesSince(changes, 'page', 1), 'page', { name: 'Home' }, {}, doc, (id) =>
      id === 'c1' ? { '0': [{ at: ['author'], value: 'Ann' }] } : undefined,
    );
    expect(migrated.data).toEqual(data);
  });

  it('keeps only the retyped values its inverse would not give back', () => {
    const { changes, doc } = changesOf(model, [[retype]]);
    expect(replayItem(changes, 'page', { name: 'A', minutes: '4' }, {}, doc).kept.size).toBe(0);
    expect(replayItem(changes, 'page', { name: 'A', minutes: ' 04' }, {}, doc).kept.get(1)).toEqual({
      '0': [{ at: ['minutes'], value: ' 04', converted: { value: 4 } }],
    });
  });
});

describe('replayCopy', () => {
  it('takes a stage copy through every operation, a history version through renames only', () => {
    const { changes } = changesOf(model, [[rename, retype]]);
    const data = { name: 'Home', author: 'Ann', minutes: '4' };
    expect(replayCopy(changes, 'page', data, 'copy')).toEqual({ name: 'Home', writer: 'Ann', minutes: 4 });
    expect(replayCopy(changes, 'page', data, 'history')).toEqual({
      name: 'Home',
      writer: 'Ann',
      minutes: '4',
    });
  });
});
