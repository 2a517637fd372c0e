// A campaign's templates: the message text (`Hello {{ receiver.name }}!`), the id of the channel
// it creates per receiver (`{{ receiver.id }}-{{ sender.id }}`) and the user ids of its
// `members_template`. The language is the push templates' Handlebars subset
// (features/push/template.ts), rendering plain text; the context is `receiver` (the user a
// message goes to; absent for channel targets), `sender`, and `channel` (for the message text).
import type { UserResponse } from 'stream-chat';
import { ApiError } from '../../http/errors';
import { compileTemplate, TemplateError } from '../push/template';

export type TemplateContext = {
  receiver?: UserResponse;
  sender: UserResponse;
  channel?: Record<string, unknown>;
};

export type Render = (context: TemplateContext) => string;

/** Text is rendered as it is: a message's text is not JSON, nothing needs escaping. */
const plain = (text: string) => text;

/** Compiles `source`; a template that does not parse is an input error naming `field`. */
export function campaignTemplate(source: string, field: string): Render {
  try {
    return compileTemplate(source, plain);
  } catch (error) {
    if (error instanceof TemplateError) throw ApiError.input(`${field}: ${error.message}`);
    throw error;
  }
}
