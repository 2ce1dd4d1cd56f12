// The role sets live in contracts, where the UI reads them too.
export { CREDIT_GRANTERS, CUSTOMER_COUNTER } from '@pharmacy/contracts';
