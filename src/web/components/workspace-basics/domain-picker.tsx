import { Checkbox, Group, SimpleGrid, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useContentModel } from '@web/lib/content-model';
import { DomainIcon } from '../schema-icon';
import classes from './domain-picker.module.css';

interface DomainPickerProps {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}

/** Checkbox cards of the domains of the workspace's content model (DESIGN §4), each listing its schemas. */
export function DomainPicker({ value, onChange, error }: DomainPickerProps) {
  const model = useContentModel();
  const toggle = (name: string) =>
    onChange(value.includes(name) ? value.filter((d) => d !== name) : [...value, name]);

  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" role="group" aria-label="Domains">
        {model.domains.map((domain) => {
          const isChecked = value.includes(domain.name);
          return (
            <UnstyledButton
              key={domain.name}
              className={classes.card}
              data-checked={isChecked || undefined}
              onClick={() => toggle(domain.name)}
              role="checkbox"
              aria-checked={isChecked}
              aria-label={domain.title}
            >
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <ThemeIcon variant={isChecked ? 'filled' : 'light'} size={36} radius="md">
                  <DomainIcon name={domain.name} size={20} />
                </ThemeIcon>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600}>{domain.title}</Text>
                    <Checkbox.Indicator checked={isChecked} size="sm" aria-hidden />
                  </Group>
                  <Text size="xs" c="dimmed">
                    {domain.schemas.map((s) => s.pluralTitle).join(' · ')}
                  </Text>
                  {domain.admin && (
                    <Text size="xs" c="var(--mantine-color-orange-light-color)">
                      Visible to workspace managers
                    </Text>
                  )}
                </Stack>
              </Group>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
