/** Spec §5: tags accept free entries; entries are trimmed, blanks dropped and duplicates removed in order. */
export function dedupeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}
