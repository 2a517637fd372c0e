#!/usr/bin/env node
// The local backend as a command (`npx chat-widget-server`, `npm start` at the project's root):
// the backend is TypeScript run as it is written, through tsx's loader, so nothing is compiled
// ahead of time and a stack trace points at the source.
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
