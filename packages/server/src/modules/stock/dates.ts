/**
 * Calendar dates (YYYY-MM-DD) for expiry: a batch is sellable through its expiry date, expired from the next day.
 * The date rules live in @pharmacy/contracts/time, shared with the till's screens.
 */
export { addDays, daysBetween, localDate } from '@pharmacy/contracts/time';
