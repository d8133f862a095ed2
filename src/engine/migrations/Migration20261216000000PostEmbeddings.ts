import { forBothDialects } from './both.js';

/** Posts' titles as an optional embeddings endpoint saw them (`--embeddings-url`, docs/search.md). */
export const PostEmbeddings = forBothDialects({
  sqlite: [
    'create table `post_embedding` (`post_id` text not null, `organization_id` text not null, `model` text not null, `title` text not null, `vector` text not null, `created_at` datetime not null, constraint `post_embedding_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `post_embedding_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`post_id`))',
    'create index `post_embedding_org_model_idx` on `post_embedding` (`organization_id`, `model`)',
  ],
  postgresql: [
    'create table "post_embedding" ("post_id" varchar(40) not null, "organization_id" varchar(40) not null, "model" varchar(100) not null, "title" varchar(200) not null, "vector" text not null, "created_at" timestamptz(3) not null, constraint "post_embedding_pkey" primary key ("post_id"))',
    'create index "post_embedding_org_model_idx" on "post_embedding" ("organization_id", "model")',
    'alter table "post_embedding" add constraint "post_embedding_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    'alter table "post_embedding" add constraint "post_embedding_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  ],
});
