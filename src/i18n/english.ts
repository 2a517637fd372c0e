import { en } from './en';
import { createTranslate, type Text } from './translate';

const translate = createTranslate('en', [en]);

/** A text in English: for the page's events and logs, which developers read. */
export const english = (said: Text): string => translate(said.key, said.params);
