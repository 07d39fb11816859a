import cytoscape from "cytoscape";
import { useEffect, useMemo, useRef, useState } from "react";
import type { MemoryEntry } from "../api";

interface GraphNode {
  id: string;
  /** Short label drawn on the node. */
  label: string;
  text: string;
  kind: "current" | "version" | "related";
}

interface GraphEdge {
  source: string;
  target: string;
  relation: "updates" | "extends" | "derives";
}

/**
 * cytoscape adds a <style> element (`position: relative` for its container) unless an element with this id exists;
 * the console's CSP allows no inline style, so a placeholder stands in for it and styles.css has the rule.
 */
function preventInlineStylesheet(): void {
  const id = "__________cytoscape_stylesheet";
  if (document.getElementById(id)) return;
  const placeholder = document.createElement("meta");
  placeholder.id = id;
  placeholder.name = "cytoscape-stylesheet";
  placeholder.content = "in styles.css";
  document.head.prepend(placeholder);
}

const shorten = (s: string, n = 28) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * A memory's neighbourhood: its versions (each later version `updates` the one before), the memories it relates to
 * (`memoryRelations`: this memory updates, extends or derives them) and the listed memories relating to it.
 */
export function memoryGraph(m: MemoryEntry, all: MemoryEntry[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const versions = [...(m.history ?? [])].sort((a, b) => a.version - b.version);
  for (const h of versions) nodes.set(h.id, { id: h.id, label: `v${h.version}`, text: h.memory, kind: "version" });
  nodes.set(m.id, { id: m.id, label: `v${m.version} (this)`, text: m.memory, kind: "current" });
  const chain = [...versions.map((h) => h.id).filter((id) => id !== m.id), m.id];
  for (let i = 1; i < chain.length; i++) edges.push({ source: chain[i]!, target: chain[i - 1]!, relation: "updates" });
  const related = (id: string) => {
    if (nodes.has(id)) return;
    const other = all.find((x) => x.id === id);
    nodes.set(id, { id, label: other ? shorten(other.memory) : shorten(id, 14), text: other?.memory ?? id, kind: "related" });
  };
  for (const [id, relation] of Object.entries(m.memoryRelations ?? {})) {
    if (edges.some((e) => e.source === m.id && e.target === id)) continue;
    // "updates" an earlier version of its own chain: the chain already says so.
    if (relation === "updates" && chain.includes(id)) continue;
    related(id);
    edges.push({ source: m.id, target: id, relation });
  }
  for (const x of all) {
    const relation = x.id === m.id ? undefined : x.memoryRelations?.[m.id];
    if (!relation || nodes.has(x.id)) continue;
    related(x.id);
    edges.push({ source: x.id, target: m.id, relation });
  }
  return { nodes: [...nodes.values()], edges };
}

const EDGE_COLOURS: Record<GraphEdge["relation"], string> = { updates: "#1d4ed8", extends: "#047857", derives: "#9333ea" };

/**
 * The graph drawn with cytoscape, and the same graph as a list (for keyboards and screen readers). Clicking a node,
 * or its button in the list, selects that memory.
 */
export function MemoryGraph({ memory, all, onSelect }: { memory: MemoryEntry; all: MemoryEntry[]; onSelect: (id: string) => void }) {
  const { nodes, edges } = useMemo(() => memoryGraph(memory, all), [memory, all]);
  const container = useRef<HTMLDivElement>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const [selected, setSelected] = useState(memory.id);

  useEffect(() => {
    if (!container.current) return;
    preventInlineStylesheet();
    const cy = cytoscape({
      container: container.current,
      elements: [
        ...nodes.map((n) => ({ data: { id: n.id, label: n.label }, classes: n.kind })),
        ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.source, target: e.target, label: e.relation, colour: EDGE_COLOURS[e.relation] } })),
      ],
      style: [
        {
          selector: "node",
          style: {
            label: "data(label)",
            "background-color": "#64748b",
            color: "#0f172a",
            "font-size": 11,
            // beside the node, on a white ground: a label below it would sit on the edge to the next version
            "text-valign": "center",
            "text-halign": "right",
            "text-margin-x": 6,
            "text-background-color": "#ffffff",
            "text-background-opacity": 1,
            "text-background-padding": "2px",
            "text-wrap": "ellipsis",
            "text-max-width": "140px",
            width: 22,
            height: 22,
          },
        },
        { selector: "node.current", style: { "background-color": "#1d4ed8", width: 30, height: 30 } },
        { selector: "node.related", style: { "background-color": "#047857", shape: "round-rectangle" } },
        { selector: "node:selected", style: { "border-width": 3, "border-color": "#f59e0b" } },
        {
          selector: "edge",
          style: {
            width: 2,
            "line-color": "data(colour)",
            "target-arrow-color": "data(colour)",
            "target-arrow-shape": "triangle",
            "curve-style": "bezier",
            label: "data(label)",
            "font-size": 10,
            color: "#334155",
            "text-background-color": "#ffffff",
            "text-background-opacity": 1,
          },
        },
      ],
      layout: { name: "breadthfirst", directed: true, padding: 16, spacingFactor: 1.5 },
      userZoomingEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    cy.$id(memory.id).select();
    cy.on("tap", "node", (evt) => {
      const id = (evt.target as cytoscape.NodeSingular).id();
      setSelected(id);
      select.current(id);
    });
    return () => cy.destroy();
  }, [nodes, edges, memory.id]);

  const byId = new Map(nodes.map((n) => [n.id, n]));
  const shown = byId.get(selected);
  return (
    <figure className="graph" aria-labelledby="graph-caption">
      <div
        ref={container}
        className="graph-canvas"
        data-node-count={nodes.length}
        data-edge-count={edges.length}
        role="img"
        aria-label={`Graph of ${nodes.length} memories and versions with ${edges.length} links; the list below has the same content`}
      />
      <figcaption id="graph-caption" className="muted">
        Versions and relations: <span className="rel-updates">updates</span>, <span className="rel-extends">extends</span>,{" "}
        <span className="rel-derives">derives</span>. Select a node to open it.
      </figcaption>
      {shown && shown.id !== memory.id ? (
        <p className="muted" role="status">
          Selected {shown.kind === "version" ? shown.label : "memory"}: {shown.text}
        </p>
      ) : null}
      <ul className="list graph-list" aria-label="Graph as a list">
        {nodes.map((n) => (
          <li key={n.id} data-node-id={n.id}>
            <button
              type="button"
              className="link"
              aria-current={n.id === selected ? "true" : undefined}
              onClick={() => {
                setSelected(n.id);
                onSelect(n.id);
              }}
            >
              {n.kind === "related" ? "memory" : n.label}: {shorten(n.text, 80)}
            </button>
            {edges
              .filter((e) => e.source === n.id)
              .map((e) => (
                <span key={`${e.source}-${e.target}`} className="muted">
                  {" "}
                  · {e.relation} {byId.get(e.target)?.kind === "related" ? shorten(byId.get(e.target)!.text, 40) : byId.get(e.target)?.label}
                </span>
              ))}
          </li>
        ))}
      </ul>
    </figure>
  );
}
