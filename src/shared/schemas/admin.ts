import { defineDomain, defineSchema } from './define';

export const clientTask = defineSchema({
  name: 'client-task',
  title: 'Client Task',
  icon: 'checklist',
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true, locked: true },
    { key: 'description', label: 'Description', type: 'multiline' },
    { key: 'dueDate', label: 'Due Date', type: 'date' },
  ],
  topFields: ['name', 'dueDate'],
});

const service = defineSchema({
  name: 'service',
  title: 'Service',
  icon: 'plug-connected',
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true, locked: true },
    { key: 'connection', label: 'Connection', type: 'service-connection', required: true, locked: true },
  ],
  topFields: ['name'],
});

/** The sandbox runs the body of this function; it resolves true when the test passes. */
export const TEST_BEGIN_BLOCK = '// Resolve true when the test passes.\nasync function test(api) {\n';
export const TEST_END_BLOCK = '\n}\n';

export const testCollection = defineSchema({
  name: 'test-collection',
  title: 'Test Collection',
  icon: 'test-pipe',
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true, locked: true },
    { key: 'schema', label: 'Schema', type: 'schema-selector', required: true },
    {
      key: 'code',
      label: 'Code',
      type: 'code',
      language: 'javascript',
      beginBlock: TEST_BEGIN_BLOCK,
      endBlock: TEST_END_BLOCK,
      defaultCode: '  return true;',
      labelWidth: 12,
    },
  ],
  topFields: ['name', 'schema'],
});

export const admin = defineDomain({
  name: 'admin',
  title: 'Admin',
  admin: true,
  schemas: [clientTask, service, testCollection],
  landingSchema: 'client-task',
});
