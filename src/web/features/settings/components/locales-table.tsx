import { useState } from 'react';
import { ActionIcon, Button, Group, Radio, Select, Table, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { isKnownLocale, localeMessages, localeName, type LocaleSettings } from '@shared/locales/locales';

/** The workspace's locales: each one's name, whether it is the default, its fallback and Remove. */
export function LocalesTable({
  settings: draft,
  onDefault,
  onFallback: setFallback,
  onRemove: handleRemove,
}: {
  settings: LocaleSettings;
  onDefault: (tag: string) => void;
  onFallback: (tag: string, to: string | null) => void;
  onRemove: (tag: string) => void;
}) {
  return (
    <Radio.Group value={draft.default} onChange={onDefault} aria-label="Default locale">
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Locale</Table.Th>
            <Table.Th>Default</Table.Th>
            <Table.Th>Falls back to</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {draft.tags.map((tag) => (
            <Table.Tr key={tag} data-locale={tag}>
              <Table.Td>
                <Text fw={500}>{tag}</Text>
                <Text size="xs" c="dimmed">
                  {localeName(tag)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Radio value={tag} aria-label={`${tag} is the default locale`} />
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label={`${tag} falls back to`}
                  placeholder="No fallback"
                  clearable
                  data={draft.tags.filter((other) => other !== tag)}
                  value={Object.hasOwn(draft.fallback, tag) ? draft.fallback[tag] : null}
                  onChange={(value) => setFallback(tag, value)}
                />
              </Table.Td>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${tag}`}
                  disabled={tag === draft.default}
                  onClick={() => handleRemove(tag)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Radio.Group>
  );
}

/** A tag to add, checked before it joins the list: known to the browser's locale data and not there yet. */
export function AddLocale({ tags, onAdd }: { tags: readonly string[]; onAdd: (tag: string) => void }) {
  const [adding, setAdding] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const handleAdd = () => {
    const tag = adding.trim();
    if (!isKnownLocale(tag)) return setAddError(localeMessages.unknownTag(tag));
    if (tags.includes(tag)) return setAddError(localeMessages.twice(tag));
    onAdd(tag);
    setAdding('');
  };
  return (
    <Group align="flex-start">
      <TextInput
        label="Add a locale"
        placeholder="fr-FR"
        description="A BCP 47 tag: language, then region"
        value={adding}
        onChange={(event) => {
          setAdding(event.currentTarget.value);
          setAddError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            handleAdd();
          }
        }}
        error={addError}
      />
      <Button variant="light" mt={44} onClick={handleAdd} disabled={!adding.trim()}>
        Add locale
      </Button>
    </Group>
  );
}
