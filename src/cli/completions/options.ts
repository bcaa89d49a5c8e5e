import { HELP_TOPICS } from '../help-topics.js';

/** What simjob's completion scripts need besides the command tree: the `simjob help <topic>` names. */
export function simjobCompletionOptions() {
  return { helpTopics: Object.keys(HELP_TOPICS) };
}
