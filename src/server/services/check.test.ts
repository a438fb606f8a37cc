import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import type { SchemaScope } from '../items/scope';
import { checkServiceConnectionsOnSave } from './check';
import { sealTokens } from './sealing';

const secret = 'test-secret';
const ctx = { config: { secret } } as AppContext;
/** A page whose blocks may hold a service connection. */
const schema: SchemaType = {
  name: 'page',
  title: 'Page',
  pluralTitle: 'Pages',
  icon: 'x',
  topFields: [],
  fields: [{ key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['connected'] }],
  blockTypes: {
    connected: {
      name: 'connected',
      title: 'Connected',
      fields: [{ key: 'connection', label: 'Connection', type: 'service-connection' }],
    },
  },
};
const scope = { schema, workspace: { id: 'acme' } } as SchemaScope;
const save = (connection: Record<string, unknown>) =>
  checkServiceConnectionsOnSave(
    ctx,
    scope,
    { sections: [{ _type: 'connected', _key: 'c', connection }] },
    undefined,
  );

describe('service connections inside blocks', () => {
  it('keep only tokens this server sealed, naming the block path otherwise', () => {
    expect(() => save({ provider: 'myspace' })).toThrow(
      'sections.0.connection.provider: Unknown service provider',
    );
    expect(() => save({ provider: 'meetup', encTokens: 'forged' })).toThrow(
      'sections.0.connection.encTokens: encTokens were not issued by this server for this workspace and provider',
    );
    const foreign = sealTokens(secret, 'other', 'meetup', { accessToken: 'a', profile: {} });
    expect(() => save({ provider: 'meetup', encTokens: foreign })).toThrow('sections.0.connection.encTokens');
  });

  it('take the profile from the sealed tokens, whatever the client sent', () => {
    const encTokens = sealTokens(secret, 'acme', 'meetup', { accessToken: 'a', profile: { name: 'Real' } });
    expect(save({ provider: 'meetup', encTokens, profile: { name: 'Forged' } })).toEqual({
      sections: [
        {
          _type: 'connected',
          _key: 'c',
          connection: { provider: 'meetup', encTokens, profile: { name: 'Real' } },
        },
      ],
    });
    expect(save({ provider: 'meetup', profile: { name: 'Forged' } })).toEqual({
      sections: [{ _type: 'connected', _key: 'c', connection: { provider: 'meetup' } }],
    });
  });
});
