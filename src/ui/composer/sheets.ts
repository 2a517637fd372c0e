// The composer's sheets: creating a poll, sharing a location. Whole messages of their own that
// few visitors make, so they are a script fetched the first time one is opened (sheets-loader.ts).
export { LocationForm } from './location-form';
export { PollForm } from './poll-form';
