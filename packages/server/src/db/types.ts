/** SQLite stores booleans as 0/1. */
export type Bool = number;
