// A chat bot's use of simjob as a library, without any chat library: `replyTo(message, client)` turns a message that
// holds a /simc export (the text of the addon's window, pasted into the chat) into the reply the bot posts. Wire it
// to your chat library's "message" event; test/e2e/bot-example.test.ts runs it against the test server and against
// a local stand-in simc.
//
//   import { createClient } from 'simjob';
//   const client = createClient({ baseUrl: 'https://sim.example.com', apiKey: process.env.SIM_KEY });
//   // or, on a machine with simc:   createClient({ local: true, simc: '/usr/local/bin/simc', dataDir: './sims' })
//   chat.on('message', async (m) => { const reply = await replyTo(m.text, client); if (reply) m.reply(reply); });

import { planTopGear, SimjobError, topGearAnswer } from 'simjob';

/** The export inside a message: its lines from the "# SimC Addon" header to the checksum. Undefined: none. */
export function exportIn(message) {
  // Chat clients wrap pastes in ``` fences.
  const lines = message.replace(/```[a-z]*/g, '').split(/\r?\n/);
  const header = lines.findIndex((line) => /^#\s*SimC Addon/.test(line));
  if (header < 0) return undefined;
  // The addon writes "# <name> - <spec> - <date>" just above its header line.
  const start = header > 0 && lines[header - 1].startsWith('#') ? header - 1 : header;
  const checksum = lines.findIndex((line, i) => i > header && /^#\s*Checksum:/.test(line));
  return lines
    .slice(start, checksum < 0 ? undefined : checksum + 1)
    .join('\n')
    .trim();
}

/**
 * The bot's reply to one message: undefined when it holds no export (the bot stays quiet), else one short text
 * saying what to equip, or what was wrong with the export. `options`: `slots` (the slot groups that may change),
 * `onProgress` (each status, for a "typing…"), `timeoutMs`, `signal`.
 */
export async function replyTo(message, client, options = {}) {
  const text = exportIn(message);
  if (text === undefined) return undefined;
  try {
    const plan = planTopGear(text, { maxCombos: options.maxCombos ?? 1000, slots: options.slots });
    const result = await client.run(plan.text, {
      metadata: plan.metadata,
      multistage: true,
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const answer = topGearAnswer(result);
    const who = `${plan.character.name} (${[plan.character.spec, plan.character.className].filter(Boolean).join(' ')})`;
    const lines = [`Top gear for ${who}, ${plan.profilesets + 1} combinations: ${answer?.headline ?? 'no answer.'}`];
    if (answer?.vault) lines.push(answer.vault);
    return lines.join('\n');
  } catch (error) {
    // simjob's errors are one line each, with a fix where there is one; anything else is the bot's own bug.
    if (error instanceof SimjobError) return `Sorry: ${error.message}${error.hint ? ` ${error.hint}` : ''}`;
    throw error;
  }
}
