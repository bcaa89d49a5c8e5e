import { describe, expect, it } from 'vitest';
import { analyzeProfile, mainActorChoice, summaryMetricOf } from '../../../src/domain/profile/index.js';

const metricOf = (text: string) => summaryMetricOf(analyzeProfile(text));

describe('the summary metric of a profile (profileset_metric)', () => {
  it('is dps when the profile does not ask, or asks with an empty value', () => {
    expect(metricOf('warrior=a\n')).toEqual({ metric: 'dps' });
    expect(metricOf('warrior=a\nprofileset_metric=\n')).toEqual({ metric: 'dps' });
  });

  it('is the first of simc’s list, split on / : or , and in any case', () => {
    expect(metricOf('profileset_metric=raid_dps\n')).toEqual({ metric: 'raid_dps' });
    expect(metricOf('profileset_metric=RAID_DPS,hps\n')).toEqual({ metric: 'raid_dps' });
    expect(metricOf('profileset_metric=dps/dtps\n')).toEqual({ metric: 'dps' });
    expect(metricOf('profileset_metric=dps:hps\n')).toEqual({ metric: 'dps' });
  });

  it('follows the last occurrence, as simc applies options in order', () => {
    expect(metricOf('profileset_metric=hps\nprofileset_metric=raid_dps\n')).toEqual({ metric: 'raid_dps' });
  });

  it('names a metric a summary cannot be in, with its line', () => {
    expect(metricOf('warrior=a\nprofileset_metric=hps,dps\n')).toEqual({ unsupported: 'hps', line: 2 });
    expect(metricOf('profileset_metric=dtps\n')).toEqual({ unsupported: 'dtps', line: 1 });
  });

  it('travels with the main actor choice', () => {
    expect(mainActorChoice(analyzeProfile('warrior=a\nprofileset_metric=raid_dps\n'))).toEqual({
      index: 0,
      name: 'a',
      metric: 'raid_dps',
    });
  });
});
