// Which of a message's fields are custom data: a send stores the rest in columns or computes it,
// and an edit may not set them as custom fields either.

/** Message fields the server owns or stores in columns; everything else is custom data. */
export const NOT_CUSTOM = new Set([
  'id', 'text', 'type', 'attachments', 'mentioned_users', 'parent_id', 'show_in_channel',
  'quoted_message_id', 'quoted_message', 'user', 'user_id', 'cid', 'html', 'created_at', 'updated_at',
  'deleted_at', 'latest_reactions', 'own_reactions', 'reaction_counts', 'reaction_scores',
  'reaction_groups', 'reply_count', 'deleted_reply_count', 'thread_participants', 'i18n', 'status',
  'command', 'member', 'channel', 'pinned', 'pinned_at', 'pinned_by', 'pin_expires', 'shadowed',
  'mentioned_channel', 'mentioned_here', 'moderation', 'moderation_details', 'restricted_visibility',
  'shared_location', 'poll',
]);
