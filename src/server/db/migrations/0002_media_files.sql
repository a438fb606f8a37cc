CREATE TABLE "files" (
	"workspace_id" text NOT NULL,
	"storage_name" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"md5_hash" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"focus_x" double precision DEFAULT 0.5 NOT NULL,
	"focus_y" double precision DEFAULT 0.5 NOT NULL,
	"dhash" text,
	"sanity_results" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "files_workspace_id_storage_name_pk" PRIMARY KEY("workspace_id","storage_name")
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;