import type { Config } from '../config';

/**
 * How long a claimed row (a delivery being sent, a schedule being run) is its claimer's: as long as its
 * job may run before pg-boss counts it abandoned and tries it again elsewhere.
 */
export const jobLeaseMs = (config: Pick<Config, 'jobsExpireSeconds'>) => config.jobsExpireSeconds * 1000;
