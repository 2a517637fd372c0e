// The views beside the conversation (its members, its threads, the visitor's reminders, starting
// a conversation): reached from a header button, and not on every visit, so they are a script
// fetched the first time one is opened (side-views-loader.ts).
export { MembersView } from './members-view';
export { NewConversation } from './new-conversation';
export { RemindersView } from './reminders-view';
export { ThreadList } from './thread-list';
