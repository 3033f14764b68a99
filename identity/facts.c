/*
 * The identity's fact list: facts put by the probes (identity/identity.c,
 * identity/sd_registers.c), read back, printed as text and as JSON.
 */
#include "identity/identity.h"
#include "identity/identity_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/units.h"


static struct fact *fact_slot(struct identity *id, const char *key)
{
	for (int i = 0; i < id->nfacts; i++)
		if (strcmp(id->facts[i].key, key) == 0)
			return &id->facts[i];
	if (id->nfacts == MAX_FACTS)
		return NULL;
	struct fact *f = &id->facts[id->nfacts++];
	memset(f, 0, sizeof *f);
	f->key = key;
	return f;
}

void __attribute__((format(printf, 3, 4)))
fact_text(struct identity *id, const char *key, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_TEXT;
	f->json[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* A text fact whose JSON value (json) is plainer than its display. */
void __attribute__((format(printf, 4, 5)))
fact_text_json(struct identity *id, const char *key, const char *json, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_TEXT;
	snprintf(f->json, sizeof f->json, "%s", json);
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* A number in JSON; fmt (may be NULL: plain decimal) is the display. */
void __attribute__((format(printf, 4, 5)))
fact_uint(struct identity *id, const char *key, uint64_t v, const char *fmt, ...)
{
	struct fact *f = fact_slot(id, key);
	va_list ap;

	if (!f)
		return;
	f->kind = FACT_UINT;
	f->num = v;
	f->bytes = strstr(key, "block_size") != NULL;
	f->json[0] = '\0';
	if (!fmt) {
		snprintf(f->text, sizeof f->text, "%" PRIu64, v);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
}

/* Bytes: "3965190144 (3.69GiB)", plus an optional remark. */
void fact_bytes(struct identity *id, const char *key, uint64_t v, const char *remark)
{
	char h[FMT_BUF];

	if (v < 1024)
		fact_uint(id, key, v, "%" PRIu64 "%s%s", v, remark ? " " : "", remark ? remark : "");
	else
		fact_uint(id, key, v, "%" PRIu64 " (%s)%s%s", v, fmt_size(h, v),
			 remark ? " " : "", remark ? remark : "");
	struct fact *f = fact_slot(id, key);	/* the one fact_uint filled */
	if (f)
		f->bytes = true;
}

void fact_bool(struct identity *id, const char *key, bool v)
{
	struct fact *f = fact_slot(id, key);

	if (!f)
		return;
	f->kind = FACT_BOOL;
	f->num = v;
	f->json[0] = '\0';
	snprintf(f->text, sizeof f->text, "%s", v ? "yes" : "no");
}

void __attribute__((format(printf, 2, 3)))
fact_note(struct identity *id, const char *fmt, ...)
{
	va_list ap;

	if (id->nnotes == MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(id->notes[id->nnotes++], TEXT_MAX, fmt, ap);
	va_end(ap);
}

void identity_set_preferred_erase_size(struct identity *id, unsigned long long v)
{
	id->preferred_erase_size = v;
}

const struct fact *fact_find(const struct identity *id, const char *key)
{
	for (int i = 0; i < id->nfacts; i++)
		if (strcmp(id->facts[i].key, key) == 0)
			return &id->facts[i];
	return NULL;
}

uint64_t fact_num(const struct identity *id, const char *key)
{
	const struct fact *f = fact_find(id, key);
	return f && f->kind != FACT_TEXT ? f->num : 0;
}


void identity_free(struct identity *id)
{
	free(id);
}


static void label_of(const char *key, char *out, size_t len)
{
	size_t i;

	for (i = 0; key[i] && i + 1 < len; i++)
		out[i] = key[i] == '_' ? ' ' : key[i];
	out[i] = '\0';
}

void identity_print(FILE *f, const struct identity *id)
{
	char label[64];
	int width = (int)strlen("note");

	if (!id)
		return;
	for (int i = 0; i < id->nfacts; i++)
		if ((int)strlen(id->facts[i].key) > width)
			width = (int)strlen(id->facts[i].key);
	for (int i = 0; i < id->nfacts; i++) {
		label_of(id->facts[i].key, label, sizeof label);
		strcat(label, ":");
		fprintf(f, "%-*s %s\n", width + 1, label, id->facts[i].text);
	}
	for (int i = 0; i < id->nnotes; i++)
		fprintf(f, "%-*s %s\n", width + 1, "note:", id->notes[i]);
}

void identity_json(struct jw *w, const char *key, const struct identity *id)
{
	if (!id) {
		jw_null(w, key);
		return;
	}
	jw_object_begin(w, key);
	for (int i = 0; i < id->nfacts; i++) {
		const struct fact *f = &id->facts[i];
		switch (f->kind) {
		case FACT_UINT: {
			char name[64];

			/* JSON names carry their unit: "size_bytes" */
			snprintf(name, sizeof name, "%s%s", f->key, f->bytes ? "_bytes" : "");
			jw_uint(w, name, f->num);
			break;
		}
		case FACT_BOOL:
			jw_bool(w, f->key, f->num != 0);
			break;
		case FACT_TEXT:
			jw_string(w, f->key, f->json[0] ? f->json : f->text);
			break;
		}
	}
	jw_array_begin(w, "notes");
	for (int i = 0; i < id->nnotes; i++)
		jw_string(w, NULL, id->notes[i]);
	jw_array_end(w);
	jw_object_end(w);
}

const char *identity_get(const struct identity *id, const char *key)
{
	const struct fact *f = id ? fact_find(id, key) : NULL;
	return f ? f->text : NULL;
}

int identity_note_count(const struct identity *id)
{
	return id ? id->nnotes : 0;
}

const char *identity_note(const struct identity *id, int i)
{
	return id && i >= 0 && i < id->nnotes ? id->notes[i] : NULL;
}

unsigned long long identity_preferred_erase_size(const struct identity *id)
{
	return id ? id->preferred_erase_size : 0;
}
