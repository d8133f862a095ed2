// snowball-stemmers ships no types: the part of its API the search uses.
declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  const snowball: {
    algorithms(): string[];
    newStemmer(language: string): Stemmer;
  };
  export default snowball;
}
