/** A column of a document table and its PostgreSQL type ('text[]' columns travel as JSON arrays). */
export interface ColumnSpec<R> {
  name: keyof R & string;
  type: 'text' | 'bigint' | 'float8' | 'uuid' | 'timestamptz' | 'text[]';
}

/** How the read model's filter index keeps a column (src/read/filter-index/types.ts says what each kind answers). */
export type ColumnKind = 'enum' | 'multi' | 'number' | 'key' | 'words' | 'text';
