// SPDX-License-Identifier: MIT
// The Inspector dock: one element, its neighbours as links and every layer's value for it.
#include "ui/docks/inspector_dock.hpp"

#include "orbis/core/sphere_geometry.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/world.hpp"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>

namespace orbis::ui {

namespace {

QString link(const Element& e) {
    const QString name = QString::fromStdString(element_name(e));
    return QString("<a href=\"%1\">%1</a>").arg(name);
}
QString link(Vertex v) { return link(Element{Element::Kind::vertex, v, {}, {}}); }
QString link(Face f) { return link(Element{Element::Kind::face, {}, f, {}}); }
QString link(Edge e) {
    return link(e.is_dual() ? Element{Element::Kind::dual_edge, {}, {}, e}
                            : Element{Element::Kind::edge, {}, {}, e});
}

bool scalar(Value_type t) {
    switch (t) {
    case Value_type::boolean:
    case Value_type::int32:
    case Value_type::uint32:
    case Value_type::int64:
    case Value_type::float32:
    case Value_type::float64:
        return true;
    default:
        return false;
    }
}

} // namespace

Inspector_dock::Inspector_dock(QWidget* parent)
    : QDockWidget(tr("Inspector"), parent) {
    setObjectName("inspector_dock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    go_to_ = new QLineEdit(body);
    go_to_->setObjectName("go_to");
    go_to_->setPlaceholderText(tr("Go to: v12, f3, e6, d6 (dual), c12 (cell)"));
    layout->addWidget(go_to_);
    go_to_action_ = new QAction(tr("&Go to Element…"), parent ? parent : this);
    go_to_action_->setObjectName("go_to_element");
    go_to_action_->setShortcut(QKeySequence(tr("Ctrl+G")));
    connect(go_to_action_, &QAction::triggered, this, [this] {
        show();
        raise();
        go_to_->setFocus();
        go_to_->selectAll();
    });
    selection_ = new QLabel(body);
    selection_->setObjectName("selection_summary");
    selection_->setTextFormat(Qt::RichText);
    selection_->setWordWrap(true);
    selection_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    selection_->hide();
    layout->addWidget(selection_);
    header_ = new QLabel(body);
    header_->setObjectName("inspector_header");
    header_->setTextFormat(Qt::RichText);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    header_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(header_);
    values_ = new QTableWidget(0, 3, body);
    values_->setObjectName("inspector_values");
    // The third column is what the writer's hints say a value means: its unit or category.
    values_->setHorizontalHeaderLabels({tr("Layer"), tr("Value"), tr("Meaning")});
    values_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    values_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    values_->horizontalHeader()->setStretchLastSection(true);
    values_->verticalHeader()->hide();
    layout->addWidget(values_, 1);
    setWidget(body);

    connect(header_, &QLabel::linkActivated, this, [this](const QString& href) {
        if (!world_) return;
        if (const auto e = parse_element(*world_, href.toStdString())) Q_EMIT element_requested(*e);
    });
    connect(go_to_, &QLineEdit::returnPressed, this, [this] {
        const std::string text = go_to_->text().trimmed().toStdString();
        const auto e = world_ ? parse_element(*world_, text) : std::nullopt;
        if (!e) {
            header_->setText(tr("<span style=\"color:#d33\">No element '%1' in this world</span>")
                                 .arg(QString::fromStdString(text).toHtmlEscaped()));
            return;
        }
        Q_EMIT element_requested(*e);
    });
    connect(values_, &QTableWidget::cellChanged, this, [this](int row, int column) {
        if (filling_ || column != 1) return;
        QTableWidgetItem* item = values_->item(row, 1);
        const QString layer = item->data(Qt::UserRole).toString();
        const auto slot = static_cast<std::size_t>(item->data(Qt::UserRole + 1).toULongLong());
        Q_EMIT value_edited(layer, slot, item->text());
    });
    refresh();
}

void Inspector_dock::set_selection_summary(const QString& html) {
    selection_->setText(html);
    selection_->setVisible(!html.isEmpty());
}

QString Inspector_dock::selection_text() const {
    QTextDocument doc;
    doc.setHtml(selection_->text());
    return selection_->text().isEmpty() ? QString() : doc.toPlainText();
}

void Inspector_dock::set_world(const World* world) {
    world_ = world;
    // Elements deleted by an edit or an undo are let go.
    if (world_ && pinned_ && !parse_element(*world_, element_name(*pinned_))) pinned_.reset();
    if (world_ && hovered_ && !parse_element(*world_, element_name(*hovered_))) hovered_.reset();
    refresh();
}

void Inspector_dock::pin(const Element& e) {
    pinned_ = e;
    refresh();
}

void Inspector_dock::unpin() {
    pinned_.reset();
    refresh();
}

void Inspector_dock::hover(const std::optional<Element>& e) {
    if (e == hovered_) return;
    hovered_ = e;
    if (!pinned_) refresh();
}

QString Inspector_dock::text() const {
    QString out = header_->text();
    for (int r = 0; r < values_->rowCount(); ++r)
        out += "\n" + values_->item(r, 0)->text() + " = " + values_->item(r, 1)->text();
    return out;
}

void Inspector_dock::add_row(const std::string& layer, const std::string& label, std::size_t slot,
                             bool editable) {
    const Layer_base* l = world_->find_layer(layer);
    const int row = values_->rowCount();
    values_->insertRow(row);
    auto* name = new QTableWidgetItem(QString::fromStdString(label));
    name->setFlags(name->flags() & ~Qt::ItemIsEditable);
    name->setToolTip(
        QString("%1 (%2, %3)")
            .arg(QString::fromStdString(layer))
            .arg(QString::fromUtf8(l->value_name().data(), int(l->value_name().size())))
            .arg(QString::fromUtf8(layer_type_name(l->type()).data(),
                                   int(layer_type_name(l->type()).size()))));
    values_->setItem(row, 0, name);
    const QString text = QString::fromStdString(l->format_value(slot));
    QString meaning;
    if (const Layer_hints* h = world_->hints(layer)) {
        bool integer = false;
        const qlonglong id = text.toLongLong(&integer);
        if (const Layer_category* c = integer ? h->category(id) : nullptr)
            meaning = QString::fromStdString(c->name);
        else
            meaning = QString::fromStdString(h->unit);
    }
    auto* note = new QTableWidgetItem(meaning);
    note->setFlags(note->flags() & ~Qt::ItemIsEditable);
    values_->setItem(row, 2, note);
    auto* value = new QTableWidgetItem(text);
    value->setData(Qt::UserRole, QString::fromStdString(layer));
    value->setData(Qt::UserRole + 1, qulonglong(slot));
    if (!editable) value->setFlags(value->flags() & ~Qt::ItemIsEditable);
    value->setToolTip(editable ? tr("Double-click to edit (an undoable step)")
                               : tr("Only scalar values are edited here"));
    values_->setItem(row, 1, value);
}

void Inspector_dock::refresh() {
    filling_ = true;
    values_->setRowCount(0);
    const std::optional<Element>& shown = pinned_ ? pinned_ : hovered_;
    if (!world_ || !shown) {
        header_->setText(tr("Hover over the planet, or click with the Select tool to pin an "
                            "element."));
        filling_ = false;
        return;
    }
    const Mesh& m = world_->mesh();
    const Element& e = *shown;
    const auto* positions = world_->layer(position_layer);
    QStringList lines;
    const QString pin = pinned_ ? tr(" (pinned)") : tr(" (under the cursor)");
    auto join = [](const QStringList& l) { return l.join(", "); };
    switch (e.kind) {
    case Element::Kind::vertex:
    case Element::Kind::cell: {
        const Vertex v = e.vertex;
        lines << QString("<b>%1 %2</b>%3")
                     .arg(e.kind == Element::Kind::cell ? tr("Voronoi cell of vertex")
                                                        : tr("Vertex"))
                     .arg(QString::fromStdString(element_name(e)))
                     .arg(pin);
        if (positions)
            lines << QString::fromStdString(
                latitude_longitude_text(glm::dvec3((*positions)[v]), 4));
        QStringList neighbours, faces, edges;
        for (const Vertex n : v.neighbors(m))
            neighbours << link(n);
        for (const Face f : v.faces(m))
            faces << link(f);
        for (const Edge x : v.edges(m))
            edges << link(x);
        lines << tr("valence %1%2")
                     .arg(v.valence(m))
                     .arg(m.is_boundary(v) ? tr(", on the boundary") : QString());
        lines << tr("neighbours: %1").arg(join(neighbours));
        lines << (e.kind == Element::Kind::cell ? tr("cell corners (faces): %1") : tr("faces: %1"))
                     .arg(join(faces));
        lines << tr("outgoing edges: %1").arg(join(edges));
        break;
    }
    case Element::Kind::face: {
        const Face f = e.face;
        lines << QString("<b>%1 %2</b>%3")
                     .arg(tr("Face"), QString::fromStdString(element_name(e)), pin);
        QStringList corners, edges, across;
        for (const Vertex v : f.vertices(m))
            corners << link(v);
        for (const Edge x : f.edges(m)) {
            edges << link(x);
            if (x.right(m).valid()) across << link(x.right(m));
        }
        lines << tr("corners: %1").arg(join(corners));
        lines << tr("edges: %1").arg(join(edges));
        lines << tr("adjacent faces: %1").arg(join(across));
        break;
    }
    case Element::Kind::edge:
    case Element::Kind::dual_edge: {
        const Edge x = e.edge;
        const Edge primal = x.is_dual() ? x.inv_rot() : x;
        lines << QString("<b>%1 %2</b>%3")
                     .arg(x.is_dual() ? tr("Dual edge") : tr("Edge"),
                          QString::fromStdString(element_name(e)), pin);
        if (x.is_dual()) {
            lines << tr("from face %1 to face %2 (crosses %3)")
                         .arg(x.origin_face(m).valid() ? link(x.origin_face(m)) : tr("outside"))
                         .arg(x.dest_face(m).valid() ? link(x.dest_face(m)) : tr("outside"))
                         .arg(link(primal));
        } else {
            lines << tr("origin %1 → dest %2").arg(link(x.origin(m)), link(x.dest(m)));
            lines << tr("left %1, right %2")
                         .arg(x.left(m).valid() ? link(x.left(m)) : tr("outside"))
                         .arg(x.right(m).valid() ? link(x.right(m)) : tr("outside"));
        }
        lines << tr("quad-edge q%1: rot %2, sym %3, inv_rot %4")
                     .arg(x.quad_index())
                     .arg(link(x.rot()), link(x.sym()), link(x.inv_rot()));
        break;
    }
    }
    header_->setText(lines.join("<br>"));

    // Values: every typed layer bound to this kind of element.
    for (const std::string& name : world_->layer_names()) {
        const Layer_base* l = world_->find_layer(name);
        if (!l) continue;
        const bool edit = scalar(l->value_tag());
        switch (e.kind) {
        case Element::Kind::vertex:
        case Element::Kind::cell:
            if (l->type() == Layer_type::vertex) add_row(name, name, e.vertex.index(), edit);
            break;
        case Element::Kind::face:
            if (l->type() == Layer_type::face) add_row(name, name, e.face.index(), edit);
            break;
        case Element::Kind::edge:
        case Element::Kind::dual_edge: {
            const Edge primal = e.edge.is_dual() ? e.edge.inv_rot() : e.edge;
            const Edge dual = primal.rot();
            switch (l->type()) {
            case Layer_type::edge_primal:
                add_row(name, name, primal.quad_index(), edit);
                break;
            case Layer_type::edge_primal_directed:
                add_row(name,
                        name + " [" + element_name({Element::Kind::edge, {}, {}, primal}) + "]",
                        primal.index(), edit);
                add_row(name,
                        name + " [" + element_name({Element::Kind::edge, {}, {}, primal.sym()}) +
                            "]",
                        primal.sym().index(), edit);
                break;
            case Layer_type::edge_dual:
                add_row(name, name + " (dual)", dual.quad_index(), edit);
                break;
            case Layer_type::edge_dual_directed:
                add_row(name,
                        name + " [" + element_name({Element::Kind::dual_edge, {}, {}, dual}) + "]",
                        dual.index(), edit);
                add_row(name,
                        name + " [" + element_name({Element::Kind::dual_edge, {}, {}, dual.sym()}) +
                            "]",
                        dual.sym().index(), edit);
                break;
            default:
                break;
            }
            break;
        }
        }
    }
    filling_ = false;
}

} // namespace orbis::ui
