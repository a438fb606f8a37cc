import {
  memo,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
  type RefObject,
} from 'react';
import { Button, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import {
  allowedBlockTypes,
  blocksLimit,
  blocksSummary,
  blockTitle,
  blockTypeNamed,
  canAddBlock,
  newBlock,
  type BlockTypes,
} from '@shared/schemas/blocks';
import { isFieldVisible } from '@shared/schemas/display-if';
import type { BlocksField as BlocksFieldDef, BlockType } from '@shared/schemas/types';
import { moveEntry, removeEntry } from '@shared/validation/list-fields';
import { useStableCallback } from '@web/lib/use-stable-callback';
import { FieldRow } from '../item-form/field-row';
import { patchItemData, prepareItemData } from '../item-form/prepare-item-data';
import { sameErrorsAt } from '../item-form/same-field-input';
import { SchemaIcon } from '../schema-icon';
import { useFieldEnvironment } from './field-environment';
import { RowEntryActions } from './list-entry-actions';
import type { FieldInputProps, FieldProps, ItemData, NestedFieldProps } from './types';
import { ViewValue } from './view-value';

const asBlocks = (value: unknown): ItemData[] =>
  Array.isArray(value)
    ? value.map((block) =>
        block && typeof block === 'object' && !Array.isArray(block) ? (block as ItemData) : {},
      )
    : [];

/** React keys of the blocks: their `_key`, or their position where that is missing or taken. */
function reactKeys(blocks: readonly ItemData[]): string[] {
  const seen = new Set<string>();
  return blocks.map((block, index) => {
    const key =
      typeof block._key === 'string' && block._key && !seen.has(block._key) ? block._key : `#${index}`;
    seen.add(key);
    return key;
  });
}

/** A block as screen readers and buttons name it: its type's title and position, 'Hero 1'. */
const blockName = (blockTypes: BlockTypes | undefined, block: ItemData, index: number) =>
  `${blockTitle(blockTypes, block)} ${index + 1}`;

/** Where focus goes once the list has been drawn again: a block's card or one of its move buttons. */
interface PendingFocus {
  key: string;
  move?: 'up' | 'down';
}

/**
 * Keeps keyboard focus where the user was after a move, add or remove: the moved block's move button
 * (the other one once it reaches an end), a new block, the next block, or Add block.
 */
function useBlockFocus(root: RefObject<HTMLDivElement | null>) {
  const pending = useRef<PendingFocus | 'add' | null>(null);
  useEffect(() => {
    const target = pending.current;
    if (!target || !root.current) return;
    pending.current = null;
    if (target === 'add')
      return root.current.querySelector<HTMLElement>(':scope > [data-blocks-footer] button')?.focus();
    const card = root.current.querySelector<HTMLElement>(
      `:scope > [data-block-key="${CSS.escape(target.key)}"]`,
    );
    if (!card) return;
    if (!target.move) return card.focus();
    const buttons = card.querySelectorAll<HTMLButtonElement>(
      ':scope > [data-block-header] button[aria-label^="Move "]',
    );
    const [up, down] = [buttons[0], buttons[1]];
    const wanted = target.move === 'up' ? up : down;
    (wanted && !wanted.disabled ? wanted : target.move === 'up' ? down : up)?.focus();
  });
  return (next: PendingFocus | 'add') => {
    pending.current = next;
  };
}

/** A block's fields, each in its labelled row, shown as their display conditions on the block say. */
function BlockFields({
  blockType,
  block,
  prefix,
  idPrefix,
  readOnly,
  errors,
  FieldInput,
  onPatch,
}: {
  blockType: BlockType;
  block: ItemData;
  /** The block's path in the errors: 'sections.0.'. */
  prefix: string;
  idPrefix: string;
  readOnly: boolean;
  errors: FieldProps['errors'];
  FieldInput: ComponentType<FieldInputProps>;
  onPatch: (patch: Readonly<ItemData>) => void;
}) {
  const visible = blockType.fields.filter((field) => isFieldVisible(field, block));
  if (visible.length === 0) return null;
  return (
    <Stack gap={4}>
      {visible.map((field) => {
        const inputId = `${idPrefix}-${field.key}`;
        return (
          <FieldRow key={field.key} field={field} inputId={inputId} editing={!readOnly}>
            <FieldInput
              field={field}
              scope={block}
              onPatch={onPatch}
              readOnly={readOnly}
              errors={errors}
              pathPrefix={prefix}
              inputId={inputId}
            />
          </FieldRow>
        );
      })}
    </Stack>
  );
}

interface BlockCardProps extends NestedFieldProps {
  block: ItemData;
  reactKey: string;
  index: number;
  count: number;
  blockTypes: BlockTypes | undefined;
  path: string;
  idPrefix: string;
  readOnly: boolean;
  errors: FieldProps['errors'];
  /** These three are kept the same across renders (useStableCallback): the cards are memoised. */
  onPatch: (index: number, patch: Readonly<ItemData>) => void;
  onMove: (index: number, direction: -1 | 1) => void;
  onRemove: (index: number) => void;
}

/** One block: a bordered card with its type's title, its fields and (when editing) move and remove. */
function BlockCardView({
  block,
  reactKey,
  index,
  count,
  blockTypes,
  path,
  readOnly,
  ...props
}: BlockCardProps) {
  const blockType = blockTypeNamed(blockTypes, block._type);
  const name = blockName(blockTypes, block, index);
  const error = props.errors[`${path}.${index}`];
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      role="group"
      aria-label={name}
      tabIndex={-1}
      data-block={index}
      data-block-key={reactKey}
      data-block-type={typeof block._type === 'string' ? block._type : undefined}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs" data-block-header>
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {blockType?.icon && <SchemaIcon name={blockType.icon} size={16} />}
          <Text fw={600} size="sm" truncate>
            {blockTitle(blockTypes, block)}
          </Text>
          <Text size="xs" c="dimmed">
            {index + 1}
          </Text>
        </Group>
        {!readOnly && (
          <RowEntryActions
            name={name}
            index={index}
            count={count}
            onMove={(direction) => props.onMove(index, direction)}
            onRemove={() => props.onRemove(index)}
          />
        )}
      </Group>
      {blockType ? (
        <BlockFields
          blockType={blockType}
          block={block}
          prefix={`${path}.${index}.`}
          idPrefix={`${props.idPrefix}-${index}`}
          readOnly={readOnly}
          errors={props.errors}
          FieldInput={props.FieldInput}
          onPatch={(patch) => props.onPatch(index, patch)}
        />
      ) : (
        <Text size="sm" c="dimmed">
          The content model has no block type “{String(block._type ?? '')}”: this block is kept as it is.
        </Text>
      )}
      {error && (
        <Text size="xs" c="red" mt={4}>
          {error}
        </Text>
      )}
    </Card>
  );
}

/**
 * A block's card, drawn again only when its block, place or messages changed: a keystroke in one block
 * redraws that block alone.
 */
const BlockCard = memo(BlockCardView, (before, after) => {
  const { errors: errorsBefore, ...restBefore } = before;
  const { errors: errorsAfter, ...restAfter } = after;
  const keys = Object.keys(restAfter) as (keyof typeof restAfter)[];
  return (
    keys.length === Object.keys(restBefore).length &&
    keys.every((key) => Object.is(restBefore[key], restAfter[key])) &&
    sameErrorsAt(errorsBefore, errorsAfter, `${after.path}.${after.index}`)
  );
});

/** Add block, a menu of the block types the field allows, while the field has room; and the count. */
function BlocksFooter({
  field,
  count,
  blockTypes,
  onAdd,
}: {
  field: BlocksFieldDef;
  count: number;
  blockTypes: BlockTypes | undefined;
  onAdd: (blockType: BlockType) => void;
}) {
  const types = allowedBlockTypes(field, blockTypes);
  return (
    <Group justify="space-between" data-blocks-footer>
      {types.length === 0 ? (
        <Text size="xs" c="dimmed">
          The content model has none of the block types {field.label} allows.
        </Text>
      ) : canAddBlock(field, count) ? (
        <Menu position="bottom-start" shadow="md" withinPortal>
          <Menu.Target>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              rightSection={<IconChevronDown size={14} />}
            >
              Add block
            </Button>
          </Menu.Target>
          <Menu.Dropdown aria-label={`Block types of ${field.label}`}>
            {types.map((type) => (
              <Menu.Item
                key={type.name}
                leftSection={type.icon ? <SchemaIcon name={type.icon} size={16} /> : undefined}
                onClick={() => onAdd(type)}
              >
                {type.title}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : (
        <span />
      )}
      {field.maxBlocks !== undefined && (
        <Text size="xs" c="dimmed">
          {count} of {blocksLimit(field)} blocks
        </Text>
      )}
    </Group>
  );
}

/** Read-only blocks in little room: the summary line, and the blocks themselves on demand. */
function BlocksSummary({ summary, children }: { summary: string; children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const id = useId();
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <ViewValue>{summary}</ViewValue>
        <Button
          size="compact-xs"
          variant="subtle"
          aria-expanded={isOpen}
          aria-controls={id}
          onClick={() => setOpen(!isOpen)}
        >
          {isOpen ? 'Hide blocks' : 'Show blocks'}
        </Button>
      </Group>
      <div id={id}>{isOpen && children}</div>
    </Stack>
  );
}

/**
 * Modular content: the blocks of a blocks field in order, each a card with its type's fields drawn by
 * the form engine (labels, errors at 'key.index.field', display conditions read the block). Add block
 * offers the field's block types; each block moves up and down and is removed. Read-only in little
 * room (a table cell, a quick view, compare mode) it reads '3 blocks: Hero, Feature grid, …'.
 */
export function BlocksField({
  field,
  value,
  onChange,
  readOnly,
  error,
  errors,
  path,
  compact,
  FieldInput,
}: FieldProps<BlocksFieldDef> & NestedFieldProps) {
  const { schema, compactDisplay } = useFieldEnvironment();
  const { blockTypes } = schema;
  const idPrefix = useId();
  const root = useRef<HTMLDivElement>(null);
  const focusNext = useBlockFocus(root);
  const blocks = asBlocks(value);
  const keys = reactKeys(blocks);
  const update = (next: ItemData[]) => onChange(next.length ? next : null);
  const patchBlock = useStableCallback((index: number, patch: Readonly<ItemData>) => {
    const fields = blockTypeNamed(blockTypes, blocks[index]._type)?.fields ?? [];
    update(blocks.map((block, i) => (i === index ? patchItemData({ fields }, block, patch) : block)));
  });
  const moveBlock = useStableCallback((index: number, direction: -1 | 1) => {
    focusNext({ key: keys[index], move: direction === -1 ? 'up' : 'down' });
    update(moveEntry(blocks, index, direction));
  });
  const removeBlock = useStableCallback((index: number) => {
    const neighbour = keys[index + 1] ?? keys[index - 1];
    focusNext(neighbour ? { key: neighbour } : 'add');
    update(removeEntry(blocks, index));
  });
  if (readOnly && blocks.length === 0) return <ViewValue />;
  const summary = blocksSummary(blocks, blockTypes);
  if (readOnly && compact) return <ViewValue>{summary}</ViewValue>;
  const addBlock = (blockType: BlockType) => {
    const block = prepareItemData({ fields: blockType.fields, blockTypes }, newBlock(blockType)).data;
    focusNext({ key: String(block._key) });
    update([...blocks, block]);
  };

  const cards = (
    <Stack gap="sm" ref={root} aria-label={field.label} data-blocks={path}>
      {blocks.map((block, index) => (
        <BlockCard
          key={keys[index]}
          reactKey={keys[index]}
          block={block}
          index={index}
          count={blocks.length}
          blockTypes={blockTypes}
          path={path}
          idPrefix={idPrefix}
          readOnly={readOnly}
          errors={errors}
          FieldInput={FieldInput}
          onPatch={patchBlock}
          onMove={moveBlock}
          onRemove={removeBlock}
        />
      ))}
      {blocks.length === 0 && (
        <Text size="sm" c="dimmed">
          No blocks yet
        </Text>
      )}
      {!readOnly && (
        <BlocksFooter field={field} count={blocks.length} blockTypes={blockTypes} onAdd={addBlock} />
      )}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
  return readOnly && compactDisplay ? <BlocksSummary summary={summary}>{cards}</BlocksSummary> : cards;
}
