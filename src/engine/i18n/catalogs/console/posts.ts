export const consolePosts = {
  'console.votes': '{count, plural, one {# vote} other {# votes}}',
  'console.roadmap.heading': 'Roadmap',
  'console.roadmap.up': 'Up<hidden>: move “{title}” up</hidden>',
  'console.roadmap.down': 'Down<hidden>: move “{title}” down</hidden>',
  'console.roadmap.count': '<muted>({count})</muted>',
  'console.roadmap.meta': '{votes} · {board}',
  'console.roadmap.empty': 'No post is {status}. Set a post’s status to put it here.',
  'console.roadmap.intro': 'The order here is the order of the portal’s roadmap.',
  'console.roadmap.drag': 'Drag a post, or use its Up and Down buttons.',
  'console.roadmap.hidden': 'Posts hidden from the roadmap are left out.',
  'console.roadmap.chooseColumn': 'Choose a column of the roadmap.',
  'console.duplicates.crumbs': '<posts>Posts</posts> › Possible duplicates',
  'console.duplicates.heading': 'Possible duplicates',
  'console.duplicates.intro':
    'Among the newest posts, those most alike another post by their titles, most alike first. Merging moves the votes (one per person), subscribers and notes to the post kept; its portal page sends there.',
  'console.duplicates.none': 'No possible duplicates among the newest posts.',
  'console.duplicates.pair':
    '<mergeLink>{merge}</mergeLink> <muted>({mergeVotes})</muted> and <intoLink>{into}</intoLink> <muted>({intoVotes}) · {score, number, percent} alike</muted>',
  'console.duplicates.merge': 'Merge the first into the second<hidden>: {merge} into {into}</hidden>',
  'console.duplicates.dismiss': 'Not duplicates<hidden>: {merge} and {into}</hidden>',
} as const;
