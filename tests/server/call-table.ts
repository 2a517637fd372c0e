// The spec's call table (shared/spec/chat-spec.md §7) as method and path, one row per call:
// the HTTP table's rows expanded ("POST and DELETE /moderation/ban" is two calls), plus the
// client operations' own calls (channel uploads, the channel query, thread replies) and the
// realtime connection and its long-poll fallback. 141 calls.
export type Call = { area: string; method: string; path: string };

const rows: Record<string, string[]> = {
  Users: [
    'POST /guest', 'GET /users', 'POST /users', 'PATCH /users', 'DELETE /users/{id}', 'POST /users/delete',
    'POST /users/restore', 'POST /users/{id}/reactivate', 'POST /users/{id}/deactivate', 'POST /users/reactivate',
    'POST /users/deactivate', 'GET /users/{id}/export', 'POST /users/block', 'POST /users/unblock', 'GET /users/block',
    'GET /users/live_locations', 'PUT /users/live_locations', 'POST /users/{id}/event', 'POST /export/users',
  ],
  Moderation: [
    'POST /moderation/ban', 'DELETE /moderation/ban', 'POST /moderation/mute', 'POST /moderation/unmute',
    'POST /moderation/flag', 'POST /moderation/unflag', 'POST /moderation/flags', 'POST /moderation/reports',
    'PATCH /moderation/reports/{id}', 'POST /moderation/unblock_message', 'GET /moderation/flags/message',
    'GET /query_banned_users', 'POST /automod/v1/moderation/update_flags',
  ],
  Channels: [
    'POST /channels', 'POST /channels/read', 'POST /channels/delete', 'POST /export_channels',
    'GET /export_channels/{id}', 'POST /sync',
  ],
  Messages: [
    'POST /messages/{id}', 'PUT /messages/{id}', 'DELETE /messages/{id}', 'POST /messages/{id}/undelete',
    'GET /messages/{id}', 'POST /messages/{id}/translate', 'POST /translate', 'POST /messages/{id}/commit',
    'POST /messages/{id}/reactions', 'POST /messages/history', 'GET /search',
  ],
  Threads: ['POST /threads', 'GET /threads/{id}', 'PATCH /threads/{id}'],
  Polls: [
    'POST /polls', 'GET /polls/{id}', 'PATCH /polls/{id}', 'DELETE /polls/{id}', 'PUT /polls', 'POST /polls/query',
    'POST /polls/{id}/votes', 'POST /polls/{id}/options', 'PUT /polls/{id}/options', 'GET /polls/{id}/options/{id}',
    'DELETE /polls/{id}/options/{id}', 'POST /messages/{id}/polls/{id}/vote', 'DELETE /messages/{id}/polls/{id}/vote/{id}',
  ],
  'Reminders and drafts': [
    'POST /messages/{id}/reminders', 'PATCH /messages/{id}/reminders', 'DELETE /messages/{id}/reminders',
    'POST /reminders/query', 'POST /drafts/query',
  ],
  'Devices and push': [
    'POST /devices', 'GET /devices', 'DELETE /devices', 'GET /unread', 'POST /unread_batch', 'POST /push_preferences',
    'POST /check_push', 'POST /check_sqs', 'POST /check_sns', 'POST /push_providers', 'GET /push_providers',
    'DELETE /push_providers/{id}/{id}',
  ],
  Admin: [
    'GET /app', 'GET /hi', 'GET /rate_limits', 'GET /hook/events',
    'POST /commands', 'GET /commands', 'GET /commands/{id}', 'PUT /commands/{id}', 'DELETE /commands/{id}',
    'POST /channeltypes', 'GET /channeltypes', 'GET /channeltypes/{id}', 'PUT /channeltypes/{id}', 'DELETE /channeltypes/{id}',
    'POST /permissions', 'GET /permissions', 'GET /permissions/{id}', 'PUT /permissions/{id}', 'DELETE /permissions/{id}',
    'POST /roles', 'GET /roles', 'DELETE /roles/{id}',
    'POST /blocklists', 'GET /blocklists', 'GET /blocklists/{id}', 'PUT /blocklists/{id}', 'DELETE /blocklists/{id}',
    'POST /segments', 'GET /segments/{id}', 'PUT /segments/{id}', 'DELETE /segments/{id}', 'POST /segments/query',
    'POST /segments/{id}/addtargets', 'POST /segments/{id}/deletetargets', 'POST /segments/{id}/targets/query',
    'GET /segments/{id}/target/{id}',
    'POST /campaigns', 'GET /campaigns/{id}', 'PUT /campaigns/{id}', 'DELETE /campaigns/{id}', 'POST /campaigns/query',
    'POST /campaigns/{id}/start', 'POST /campaigns/{id}/stop',
    'GET /og', 'GET /tasks/{id}', 'POST /import_urls', 'POST /imports', 'GET /imports', 'GET /imports/{id}',
  ],
  Uploads: ['POST /uploads/file', 'POST /uploads/image', 'DELETE /uploads/file', 'DELETE /uploads/image'],
  'Client operations': [
    'POST /channels/{id}/{id}/image', 'POST /channels/{id}/{id}/file', 'POST /channels/{id}/{id}/query',
    'GET /messages/{id}/replies',
  ],
  Realtime: ['GET /connect', 'GET /longpoll'],
};

export const CALL_TABLE: Call[] = Object.entries(rows).flatMap(([area, calls]) =>
  calls.map((call) => {
    const [method = '', path = ''] = call.split(' ');
    return { area, method, path };
  }),
);
