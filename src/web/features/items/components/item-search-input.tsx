import { CloseButton, Loader, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** Search the items' words, with a spinner while the answer is on its way and a button that clears it. */
export function ItemSearchInput({
  value,
  onChange,
  isSearching,
}: {
  value: string;
  onChange: (value: string) => void;
  isSearching: boolean;
}) {
  return (
    <TextInput
      type="search"
      aria-label="Search items"
      placeholder="Search titles and text"
      w={{ base: '100%', xs: 220 }}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      leftSection={<IconSearch size={16} />}
      rightSection={
        isSearching ? (
          <Loader size={14} />
        ) : value ? (
          <CloseButton size="sm" aria-label="Clear search" onClick={() => onChange('')} />
        ) : undefined
      }
    />
  );
}
