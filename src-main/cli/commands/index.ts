// Every command of `countersign`, in the order `--help` lists them. A new command is a
// new file in this folder and one line here.
import type { CommandFactory } from '../define.js';
import { checkCommand } from './check.js';
import { listenCommand } from './listen.js';
import { scenarioCommand } from './scenario.js';
import { triggerCommand } from './trigger.js';
import { verifyCommand } from './verify.js';

export const COMMANDS: CommandFactory[] = [checkCommand, listenCommand, scenarioCommand, triggerCommand, verifyCommand];
