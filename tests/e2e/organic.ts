// Campaigns booked by the advertising journeys keep running for the whole run, and a promoted
// cell moves every cell after it. Journeys that count a feed's cells or compare its look ask
// for organic pins only: the e2e worker lets this header turn placement off per request.
export const ORGANIC_ONLY = { extraHTTPHeaders: { "x-pinloom-placement": "off" } } as const;
