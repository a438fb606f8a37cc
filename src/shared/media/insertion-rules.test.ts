import { insertionErrors } from './insertion-rules';

const event = {
  allowedLocations: ['US', 'CA'],
  startTime: '2027-06-01T16:00:00.000Z',
  startTime_tz: 'America/Los_Angeles',
  endTime: '2027-06-03T01:00:00.000Z',
  endTime_tz: 'America/New_York',
};

describe('image insertion rules (spec §5)', () => {
  it('accepts content inside the window and the allowed locations', () => {
    expect(
      insertionErrors(
        { locations: ['US'], startTime: '2027-06-01T16:00:00.000Z', endTime: '2027-06-02T00:00:00.000Z' },
        event,
      ),
    ).toEqual([]);
  });

  it('names each location the event does not allow, by country name', () => {
    expect(insertionErrors({ locations: ['US', 'FR', 'DE'] }, event)).toEqual([
      'Location: "France" not allowed.',
      'Location: "Germany" not allowed.',
    ]);
    expect(insertionErrors({ locations: ['FR'] }, { ...event, allowedLocations: [] })).toEqual([]);
  });

  it("gives the event's start and end in its own zones", () => {
    expect(
      insertionErrors({ startTime: '2027-06-01T15:59:00.000Z', endTime: '2027-06-03T01:00:01.000Z' }, event),
    ).toEqual([
      'Start time must be after Tue Jun 1st, 2027 9:00 AM.',
      'End time must be before Wed Jun 2nd, 2027 9:00 PM.',
    ]);
  });

  it('checks nothing it cannot compare', () => {
    expect(insertionErrors({}, event)).toEqual([]);
    expect(
      insertionErrors({ startTime: '2020-01-01T00:00:00Z', endTime: '2030-01-01T00:00:00Z' }, {}),
    ).toEqual([]);
  });
});
