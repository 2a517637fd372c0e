// The slash commands a channel offers (`channel.config.commands`, which the SDK's `/`
// suggestions list): the provider's built-ins, then the app's custom commands from `/commands`.
// Every channel type offers all of them, the provider's default ("all").
import type { CommandResponse, CommandVariants } from 'stream-chat';
import { BUILTIN_COMMANDS } from '../auth/channel-types';
import type { CommandRow } from '../store/commands';
import type { Store } from '../store/store';

export const BUILTIN_NAMES = new Set<string>(BUILTIN_COMMANDS.flatMap((command) => (command.name ? [command.name] : [])));

/** A command as `/commands` answers it; names of custom commands are the app's own strings. */
export type PresentedCommand = {
  name: CommandVariants;
  description: string;
  args: string;
  set: CommandVariants;
  created_at: string;
  updated_at: string;
};

export function presentCommand(row: CommandRow): PresentedCommand {
  return {
    name: row.name as CommandVariants,
    description: row.description,
    args: row.args,
    set: row.set_name as CommandVariants,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function channelCommands(store: Store): CommandResponse[] {
  return [...BUILTIN_COMMANDS, ...store.commands.all().map(presentCommand)];
}
