CREATE TABLE "item_locks" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"item_id" text NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"tab" text NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "item_locks_workspace_id_schema_item_id_pk" PRIMARY KEY("workspace_id","schema","item_id")
);
--> statement-breakpoint
ALTER TABLE "item_locks" ADD CONSTRAINT "item_locks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_locks" ADD CONSTRAINT "item_locks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;