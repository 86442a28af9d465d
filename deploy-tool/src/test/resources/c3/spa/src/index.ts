export default {
	async fetch(request, env): Promise<Response> {
		const url = new URL(request.url);
		if (url.pathname.startsWith('/api/')) {
			return Response.json({ name: 'Cloudflare', path: url.pathname });
		}
		return env.ASSETS.fetch(request);
	},
} satisfies ExportedHandler<Env>;
